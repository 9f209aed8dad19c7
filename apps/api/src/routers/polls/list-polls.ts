import { DebateReactionsInput, PollList } from '@verdict/contracts';
import { optionalUserProcedure } from '../../trpc/init.ts';

export const listPolls = optionalUserProcedure
  .meta({
    errors: {
      NOT_FOUND: 'The debate is missing or deleted',
      FORBIDDEN: 'A private debate of another account (or, signed out, any private debate)',
    },
    openapi: {
      method: 'GET',
      path: '/api/debates/{debateId}/polls',
      summary: "A debate's polls with their tallies and your vote",
      description:
        'Oldest first, open and closed. Readable without signing in on public debates (userVote is then ' +
        'null); private debates are readable by their owner only.',
    },
  })
  .input(DebateReactionsInput)
  .output(PollList)
  .query(({ ctx, input }) => ctx.services.polls.list(ctx.caller?.userId ?? null, input.debateId));
