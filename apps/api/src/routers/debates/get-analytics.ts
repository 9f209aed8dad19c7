import { DebateAnalytics, DebateIdInput } from '@verdict/contracts';
import { userProcedure } from '../../trpc/init.ts';
import { ONE_DEBATE_ERRORS } from './error-responses.ts';

export const getAnalytics = userProcedure
  .meta({
    errors: ONE_DEBATE_ERRORS,
    openapi: {
      method: 'GET',
      path: '/api/debates/{id}/analytics',
      summary: "Duration, rounds, turns and tokens per agent and cost, next to the caller's averages",
    },
  })
  .input(DebateIdInput)
  .output(DebateAnalytics)
  .query(({ ctx, input }) => ctx.services.debates.analytics(ctx.caller.userId, input.id));
