import { DebateIdInput, DebateStateChart } from '@verdict/contracts';
import { userProcedure } from '../../trpc/init.ts';

export const getStateChart = userProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/debates/{id}/statechart',
      tags: ['debates'],
      summary: "The engine's state chart, this debate's current state and its transition history",
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
  .output(DebateStateChart)
  .query(({ ctx, input }) => ctx.core.debateControl.chart(ctx.caller.userId, input.id));
