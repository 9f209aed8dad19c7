import { DebateIdInput, DebateStateChart } from '@verdict/contracts';
import { userProcedure } from '../../trpc/init.ts';
import { DEBATE_ROUTE_ERRORS } from './error-responses.ts';

export const getStateChart = userProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/debates/{id}/statechart',
      tags: ['debates'],
      summary: "The engine's state chart, this debate's current state and its transition history",
      protect: true,
      errorResponses: DEBATE_ROUTE_ERRORS,
    },
  })
  .input(DebateIdInput)
  .output(DebateStateChart)
  .query(({ ctx, input }) => ctx.core.debateControl.chart(ctx.caller.userId, input.id));
