import { DebateIdInput, DebateStateChart } from '@verdict/contracts';
import { userProcedure } from '../../trpc/init.ts';
import { ONE_DEBATE_ERRORS } from './error-responses.ts';

export const getStateChart = userProcedure
  .meta({
    errors: ONE_DEBATE_ERRORS,
    extension: true,
    openapi: {
      method: 'GET',
      path: '/api/debates/{id}/statechart',
      summary: "The engine's state chart, this debate's current state and its transition history",
    },
  })
  .input(DebateIdInput)
  .output(DebateStateChart)
  .query(({ ctx, input }) => ctx.core.debateControl.chart(ctx.caller.userId, input.id));
