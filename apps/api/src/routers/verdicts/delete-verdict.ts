import { DebateIdInput, DeletedVerdict } from '@verdict/contracts';
import { keyProcedure } from '../../trpc/init.ts';

/** Permanent; cancels a running debate first. Deleting again answers 200 to the owner. */
export const deleteVerdict = keyProcedure
  .meta({
    errors: { NOT_FOUND: 'Missing, or a debate of another account' },
    openapi: {
      method: 'DELETE',
      path: '/v1/verdicts/{id}',
      summary: 'Delete a debate for good (running ones are cancelled); idempotent',
    },
  })
  .input(DebateIdInput)
  .output(DeletedVerdict)
  .mutation(async ({ ctx, input }) => {
    await ctx.services.debates.removePermanently(ctx.caller.userId, input.id);
    return { id: input.id, deleted: true as const };
  });
