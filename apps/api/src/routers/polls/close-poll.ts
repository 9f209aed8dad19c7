import { Poll, PollIdInput } from '@verdict/contracts';
import { userProcedure } from '../../trpc/init.ts';
import { OWNER_POLL_ERRORS } from './error-responses.ts';

export const closePoll = userProcedure
  .meta({
    errors: OWNER_POLL_ERRORS,
    openapi: {
      method: 'PATCH',
      path: '/api/debates/{debateId}/polls/{pollId}',
      summary: 'Close a poll of your debate',
      description:
        'The debate owner only; no body. Sets closedAt and freezes the tallies, which stay readable; later ' +
        'votes get 409 POLL_CLOSED. Closing a closed poll changes nothing and answers it as it is.',
    },
  })
  .input(PollIdInput)
  .output(Poll)
  .mutation(({ ctx, input }) => ctx.services.polls.close(ctx.caller.userId, input.debateId, input.pollId));
