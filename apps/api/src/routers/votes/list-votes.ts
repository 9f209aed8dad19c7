import { ArgumentVotes, DebateReactionsInput } from '@verdict/contracts';
import { optionalUserProcedure } from '../../trpc/init.ts';
import { VOTE_READ_ERRORS } from './error-responses.ts';

export const listVotes = optionalUserProcedure
  .meta({
    errors: VOTE_READ_ERRORS,
    openapi: {
      method: 'GET',
      path: '/api/debates/{debateId}/votes',
      summary: "Agree/disagree counts of a debate's arguments and rebuttals",
      description:
        'A map of claimId (the claimId of argument and rebuttal events) to its agree and disagree counts and ' +
        "the caller's own vote. Only claims with votes are listed. Readable without signing in on public " +
        'debates (userVote is then null); private debates are readable by their owner only.',
    },
  })
  .input(DebateReactionsInput)
  .output(ArgumentVotes)
  .query(({ ctx, input }) => ctx.services.argumentVotes.list(ctx.caller?.userId ?? null, input.debateId));
