import { DebateIdInput } from '@verdict/contracts';
import { z } from 'zod';
import { userProcedure } from '../../trpc/init.ts';
import { DEBATE_ROUTE_ERRORS } from './error-responses.ts';

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
      errorResponses: DEBATE_ROUTE_ERRORS,
    },
  })
  .input(DebateIdInput)
  .output(z.void())
  .mutation(({ ctx, input }) => ctx.core.debateReads.softDelete(ctx.caller.userId, input.id));
