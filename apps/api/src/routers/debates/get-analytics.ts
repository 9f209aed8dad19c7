import { DebateAnalytics, DebateIdInput } from '@verdict/contracts';
import { userProcedure } from '../../trpc/init.ts';
import { DEBATE_ROUTE_ERRORS } from './error-responses.ts';

export const getAnalytics = userProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/debates/{id}/analytics',
      tags: ['debates'],
      summary: "Duration, rounds, turns and tokens per agent and cost, next to the caller's averages",
      protect: true,
      errorResponses: DEBATE_ROUTE_ERRORS,
    },
  })
  .input(DebateIdInput)
  .output(DebateAnalytics)
  .query(({ ctx, input }) => ctx.core.debateAnalytics(ctx.caller.userId, input.id));
