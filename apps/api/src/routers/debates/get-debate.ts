import { DebateIdInput, DebateObject } from '@verdict/contracts';
import { toDebateObject } from '@verdict/core';
import { userProcedure } from '../../trpc/init.ts';

export const getDebate = userProcedure
  .meta({
    errors: { NOT_FOUND: 'Missing, deleted, or a private debate of another account' },
    openapi: {
      method: 'GET',
      path: '/api/debates/{id}',
      summary: 'One debate (own, or public); counts, verdict and cost once completed',
    },
  })
  .input(DebateIdInput)
  .output(DebateObject)
  .query(async ({ ctx, input }) =>
    toDebateObject(await ctx.services.debateAccess.visible(ctx.caller.userId, input.id)),
  );
