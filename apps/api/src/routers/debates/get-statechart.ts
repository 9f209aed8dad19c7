import { DebateIdInput, DebateStateChart } from '@verdict/contracts';
import { describeChart, stateOfStatus } from '@verdict/engine/chart';
import { streamData } from '../../http/debate-stream-data.ts';
import { userProcedure } from '../../trpc/init.ts';
import { ONE_DEBATE_ERRORS } from './error-responses.ts';

const FINISHED = new Set(['completed', 'failed']);

export const getStateChart = userProcedure
  .meta({
    errors: ONE_DEBATE_ERRORS,
    extension: true,
    openapi: {
      method: 'GET',
      path: '/api/debates/{id}/statechart',
      summary: "The engine's state chart, this debate's current state, its transition history and its events",
      description:
        'For whoever may read the debate (its creator, its workspace, anyone when public). The engine node ' +
        "of each step (`node`) is shown to the debate's creator only.",
    },
  })
  .input(DebateIdInput)
  .output(DebateStateChart)
  .query(async ({ ctx, input }): Promise<DebateStateChart> => {
    const inspected = await ctx.services.debates.inspect(ctx.caller.userId, input.id);
    return {
      chart: describeChart(),
      current: inspected.live
        ? { state: inspected.state, live: true }
        : { state: restingState(inspected.status, inspected.history), live: false },
      // Which engine nodes ran it (host and process) is for its creator: other readers see the steps only.
      history: inspected.isCreator
        ? inspected.history
        : inspected.history.map(({ node: _node, ...step }) => step),
      attempt: inspected.attempt,
      events: inspected.events.map((event) => ({
        seq: event.seq,
        type: event.type,
        data: streamData(event.type, event.data) as Record<string, unknown>,
        at: event.at,
      })),
    };
  });

/**
 * Where a debate no engine holds rests: its status decides once it is finished (it may have failed outside
 * the machine); before that, the last stored state says more than the status (judging is still "running").
 */
function restingState(status: string, history: { state: string }[]): string {
  const last = history.at(-1)?.state;
  return FINISHED.has(status) || !last ? stateOfStatus(status) : last;
}
