import { ArgumentVoteIdInput } from '@verdict/contracts';
import { z } from 'zod';
import { userProcedure } from '../../trpc/init.ts';
import { VOTE_WRITE_ERRORS } from './error-responses.ts';

/** Idempotent: having no vote to take back is success too. */
export const removeVote = userProcedure
  .meta({
    errors: VOTE_WRITE_ERRORS,
    successStatus: 204,
    openapi: {
      method: 'DELETE',
      path: '/api/debates/{debateId}/votes/{claimId}',
      summary: 'Take back your vote on an argument or rebuttal',
      description: 'Succeeds (204) also when you have no vote on that claim.',
    },
  })
  .input(ArgumentVoteIdInput)
  .output(z.void())
  .mutation(({ ctx, input }) =>
    ctx.services.argumentVotes.remove(ctx.caller.userId, input.debateId, input.claimId),
  );
