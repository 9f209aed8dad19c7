import { DebateIdInput, DeletedVerdict } from '@verdict/contracts';
import { keyProcedure } from '../../trpc/init.ts';

/** Permanent; cancels a running debate first. Deleting again answers 200 to the owner. */
export const deleteVerdict = keyProcedure
  .meta({
    openapi: {
      method: 'DELETE',
      path: '/v1/verdicts/{id}',
      tags: ['v1'],
      summary: 'Delete a debate for good (running ones are cancelled); idempotent',
      protect: true,
      errorResponses: {
        400: 'Invalid id',
        401: 'Missing or invalid key',
        404: 'Missing or not yours',
        429: 'Rate limited',
      },
    },
  })
  .input(DebateIdInput)
  .output(DeletedVerdict)
  .mutation(async ({ ctx, input }) => {
    await ctx.core.debateControl.removePermanently(ctx.caller.userId, input.id);
    return { id: input.id, deleted: true as const };
  });
