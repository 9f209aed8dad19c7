import { PollIdInput } from '@verdict/contracts';
import { z } from 'zod';
import { userProcedure } from '../../trpc/init.ts';
import { OWNER_POLL_ERRORS } from './error-responses.ts';

export const deletePoll = userProcedure
  .meta({
    errors: OWNER_POLL_ERRORS,
    successStatus: 204,
    openapi: {
      method: 'DELETE',
      path: '/api/debates/{debateId}/polls/{pollId}',
      summary: 'Delete a poll of your debate, with its votes, for good',
      description: 'The debate owner only. Deleting it again answers 404.',
    },
  })
  .input(PollIdInput)
  .output(z.void())
  .mutation(({ ctx, input }) => ctx.services.polls.remove(ctx.caller.userId, input.debateId, input.pollId));
