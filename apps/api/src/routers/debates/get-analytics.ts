import { DebateAnalytics, DebateIdInput } from '@verdict/contracts';
import { userProcedure } from '../../trpc/init.ts';

export const getAnalytics = userProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/debates/{id}/analytics',
      tags: ['debates'],
      summary: "Duration, rounds, turns and tokens per agent and cost, next to the caller's averages",
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
  .output(DebateAnalytics)
  .query(({ ctx, input }) => ctx.core.debateAnalytics(ctx.caller.userId, input.id));
