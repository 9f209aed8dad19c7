import type { DebateStatus } from '@verdict/contracts';
import type { Bus, TransitionRecord } from '../bus/ports.ts';
import type { Database } from '../db/orm.ts';
import { notFound } from '../shared/app-error.ts';
import type { DebateAccess } from './debate-access.ts';
import { storedHistory } from './debate-history.ts';
import { type TimedEvent, timeline } from './events/timeline.ts';

/** What the state chart shows of a debate. */
export type DebateInspection = {
  attempt: number;
  status: DebateStatus;
  history: TransitionRecord[];
  /** Whether the caller created the debate (and may see which engine nodes ran it). */
  isCreator: boolean;
  /** The stored events of its current attempt, with their times: the chart's timeline. */
  events: TimedEvent[];
} & ({ live: true; state: string } | { live: false });

/**
 * The state chart's data with its timeline, for whoever may read the debate (the console's debugger of any
 * debate seen): the live state and history from the engine node holding it, else the stored history.
 */
export const inspectDebate = ({ access, bus, db }: { access: DebateAccess; bus: Bus; db: Database }) => {
  const readTimeline = timeline({ db });
  return async (userId: string, id: string): Promise<DebateInspection> => {
    const read = await access.reader(userId, id);
    if (!read.mayRead) throw notFound('Debate');
    const { attempt, status } = read.debate;
    const isCreator = read.standing.isCreator;
    const [reply, events] = await Promise.all([
      bus.commands.send(id, { type: 'inspect' }, 2000),
      readTimeline(id, attempt),
    ]);
    if (reply === 'no_engine') {
      return {
        live: false,
        attempt,
        status,
        isCreator,
        events,
        history: await storedHistory(db, id, attempt),
      };
    }
    const history = reply.history ?? [];
    return { live: true, attempt, status, isCreator, events, state: reply.state, history };
  };
};
