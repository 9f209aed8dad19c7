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
      description:
        "A public debate read from outside its owner's account and workspace shows what its share link " +
        'shows: ownerId null, and cost null unless the owner chose showCost.',
    },
  })
  .input(DebateIdInput)
  .output(DebateObject)
  .query(async ({ ctx, input }) => {
    const { debate, shows } = await ctx.services.debateAccess.shown(ctx.caller.userId, input.id);
    return toDebateObject(debate, shows);
  });
