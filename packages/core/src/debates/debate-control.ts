import type { DebateCommandInput, DebateCommandResult } from '@verdict/contracts';
import type { Bus, DebateCommand, TransitionRecord } from '../bus/ports.ts';
import { type Chart, describeChart } from '../engine/chart.ts';
import { AppError } from '../shared/app-error.ts';
import type { DebateReads } from './debate-reads.ts';

export type DebateChart = {
  chart: Chart;
  /** Where the actor is now; for a debate no engine holds, the state its stored status implies. */
  current: { state: string; live: boolean };
  history: TransitionRecord[];
};

const STATE_OF_STATUS: Record<string, string> = {
  pending: 'pending',
  running: 'running.speaking',
  paused: 'running.paused',
  completed: 'completed',
  failed: 'failed',
};

/** Commands and debugging views for the owner of a debate, through whichever node holds it. */
export function createDebateControl(reads: DebateReads, bus: Bus) {
  return {
    command: async (userId: string, input: DebateCommandInput): Promise<DebateCommandResult> => {
      await reads.owned(userId, input.id);
      const command: DebateCommand =
        input.type === 'inject'
          ? { type: 'inject', payload: { content: input.payload?.content ?? '' } }
          : { type: input.type };
      const reply = await bus.commands.send(input.id, command);
      if (reply === 'no_engine') {
        throw new AppError('DEBATE_NOT_RUNNING', 'No engine is running this debate');
      }
      return {
        accepted: reply.accepted,
        state: reply.state,
        ...(reply.message ? { message: reply.message } : {}),
      };
    },

    chart: async (userId: string, id: string): Promise<DebateChart> => {
      const debate = await reads.owned(userId, id);
      const reply = await bus.commands.send(id, { type: 'inspect' }, 2000);
      if (reply === 'no_engine') {
        return {
          chart: describeChart(),
          current: { state: STATE_OF_STATUS[debate.status] ?? 'pending', live: false },
          history: [],
        };
      }
      return {
        chart: describeChart(),
        current: { state: reply.state, live: true },
        history: reply.history ?? [],
      };
    },
  };
}
