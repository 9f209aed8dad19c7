import { DebateIdInput } from '@verdict/contracts';
import { z } from 'zod';
import { userProcedure } from '../../trpc/init.ts';

/** Soft delete: hidden from lists and reads. The owner only; anyone else gets 404. */
export const deleteDebate = userProcedure
  .meta({
    successStatus: 204,
    openapi: {
      method: 'DELETE',
      path: '/api/debates/{id}',
      tags: ['debates'],
      summary: 'Hide a debate (soft delete)',
      protect: true,
      errorResponses: {
        400: 'Invalid id',
        401: 'Not authenticated',
        404: 'Missing or not yours',
        429: 'Rate limited',
      },
    },
  })
  .input(DebateIdInput)
  .output(z.void())
  .mutation(({ ctx, input }) => ctx.core.debateReads.softDelete(ctx.caller.userId, input.id));
