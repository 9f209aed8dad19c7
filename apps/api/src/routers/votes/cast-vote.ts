import { CastArgumentVoteInput, ClaimVotes } from '@verdict/contracts';
import { userProcedure } from '../../trpc/init.ts';

export const castVote = userProcedure
  .meta({
    errors: {
      NOT_FOUND: 'The debate is missing or deleted, or no argument or rebuttal of it has this claimId',
      FORBIDDEN: 'A private debate of another account',
    },
    openapi: {
      method: 'POST',
      path: '/api/debates/{debateId}/votes',
      summary: 'Agree or disagree with an argument or rebuttal (neutral takes the vote back)',
      description:
        'One vote per user and claim: voting again replaces it, neutral removes it. Allowed on your own ' +
        "debates and on public ones. Answers the claim's counts after the vote.",
    },
  })
  .input(CastArgumentVoteInput)
  .output(ClaimVotes)
  .mutation(({ ctx, input }) =>
    ctx.services.argumentVotes.cast(ctx.caller.userId, input.debateId, input.claimId, input.vote),
  );
