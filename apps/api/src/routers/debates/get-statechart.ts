import { DebateIdInput, DebateStateChart } from '@verdict/contracts';
import { describeChart, stateOfStatus } from '@verdict/engine';
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
  .query(async ({ ctx, input }): Promise<DebateStateChart> => {
    const inspected = await ctx.services.debateControl.inspect(ctx.caller.userId, input.id);
    return inspected.live
      ? {
          chart: describeChart(),
          current: { state: inspected.state, live: true },
          history: inspected.history,
        }
      : {
          chart: describeChart(),
          current: { state: stateOfStatus(inspected.status), live: false },
          history: [],
        };
  });
