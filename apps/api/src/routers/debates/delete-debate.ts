import { DebateIdInput } from '@verdict/contracts';
import { z } from 'zod';
import { userProcedure } from '../../trpc/init.ts';
import { CONTROL_DEBATE_ERRORS } from './error-responses.ts';

/** Soft delete: hidden from lists and reads. The owner only; anyone else gets 404. */
export const deleteDebate = userProcedure
  .meta({
    errors: CONTROL_DEBATE_ERRORS,
    successStatus: 204,
    openapi: {
      method: 'DELETE',
      path: '/api/debates/{id}',
      summary: 'Hide a debate (soft delete)',
    },
  })
  .input(DebateIdInput)
  .output(z.void())
  .mutation(({ ctx, input }) => ctx.services.debates.softDelete(ctx.caller.userId, input.id));
