import { DebateIdInput, DebateObject } from '@verdict/contracts';
import { toDebateObject } from '@verdict/core';
import { userProcedure } from '../../trpc/init.ts';

export const getDebate = userProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/debates/{id}',
      tags: ['debates'],
      summary: 'One debate (own, or public); counts, verdict and cost once completed',
      protect: true,
      errorResponses: {
        400: 'Invalid id',
        401: 'Not authenticated',
        404: 'Missing, deleted or private',
        429: 'Rate limited',
      },
    },
  })
  .input(DebateIdInput)
  .output(DebateObject)
  .query(async ({ ctx, input }) =>
    toDebateObject(await ctx.core.debateReads.visible(ctx.caller.userId, input.id)),
  );
