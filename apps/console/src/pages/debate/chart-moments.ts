import type { Schemas } from '../../lib/api.ts';
import type { Citation } from '../../lib/contracts.ts';

type StateChart = Schemas['DebateStateChart'];
export type Transition = StateChart['history'][number];
export type ChartEvent = NonNullable<StateChart['events']>[number];

/** Where a restore or a change of node moved the debate: from the node that held it to the one that took it. */
export type HandOver = { restored: boolean; from: string | null; to: string | null };

/** One step of the timeline: a state the actor entered, or an event the debate stored. */
export type Moment =
  | {
      kind: 'transition';
      key: string;
      at: string;
      event: string;
      state: string;
      node: string | null;
      handOver: HandOver | null;
    }
  | { kind: 'event'; key: string; at: string; seq: number; type: string; data: Record<string, unknown> };

/** A turn spoken (an argument or a rebuttal), for the transcript as of a moment. */
export type SpokenTurn = {
  claimId: string;
  agent: string;
  round: number;
  targetAgent: string | null;
  content: string;
  /** Its citations as the engine checked them, as the stored event carries them (evidence engine on). */
  citations?: Citation[];
  at: string;
};

export type Timeline = {
  moments: Moment[];
  /** By moment: the state the actor was in then (null before its first recorded state). */
  stateAt: (string | null)[];
  /** By moment: the state before that one, to mark the transition taken. */
  previousStateAt: (string | null)[];
  turns: SpokenTurn[];
  /** By moment: how many of `turns` had been spoken by then. */
  turnsAt: number[];
};

const text = (value: unknown) => (typeof value === 'string' ? value : '');

function turnOf(event: ChartEvent): SpokenTurn | null {
  if (event.type !== 'argument' && event.type !== 'rebuttal') return null;
  const { data } = event;
  return {
    claimId: text(data.claimId),
    agent: text(data.agent),
    round: typeof data.round === 'number' ? data.round : 0,
    targetAgent: typeof data.targetAgent === 'string' ? data.targetAgent : null,
    content: text(data.content),
    citations: Array.isArray(data.citations) ? (data.citations as Citation[]) : undefined,
    at: event.at,
  };
}

function handOverOf(entry: Transition, before: Transition | undefined): HandOver | null {
  const to = entry.node ?? null;
  const from = before?.node ?? null;
  const restored = entry.event === 'xstate.restore';
  if (!restored && (to === null || from === null || to === from)) return null;
  return { restored, from: from !== to ? from : null, to };
}

/**
 * The history and the events as one timeline in time order. Each list is already in its own order, so
 * they are merged rather than sorted: a transition goes first when it is no later than the event (the
 * events a step emits are stored just after it).
 */
export function buildTimeline(history: Transition[], events: ChartEvent[]): Timeline {
  const moments: Moment[] = [];
  let h = 0;
  let e = 0;
  while (h < history.length || e < events.length) {
    const entry = history[h];
    const event = events[e];
    if (entry && (!event || Date.parse(entry.at) <= Date.parse(event.at))) {
      moments.push({
        kind: 'transition',
        key: `t${h}`,
        at: entry.at,
        event: entry.event,
        state: entry.state,
        node: entry.node ?? null,
        handOver: handOverOf(entry, history[h - 1]),
      });
      h++;
    } else if (event) {
      moments.push({ kind: 'event', key: `e${event.seq}`, ...event });
      e++;
    }
  }
  const stateAt: (string | null)[] = [];
  const previousStateAt: (string | null)[] = [];
  const turns: SpokenTurn[] = [];
  const turnsAt: number[] = [];
  let state: string | null = null;
  let previous: string | null = null;
  for (const moment of moments) {
    if (moment.kind === 'transition') {
      previous = state;
      state = moment.state;
    } else {
      const turn = turnOf(moment);
      if (turn) turns.push(turn);
    }
    stateAt.push(state);
    previousStateAt.push(previous);
    turnsAt.push(turns.length);
  }
  return { moments, stateAt, previousStateAt, turns, turnsAt };
}

/** How the timeline tells a hand-over: "restored on node B after node A stopped". */
export function handOverText(handOver: HandOver): string {
  const to = handOver.to ? `node ${handOver.to}` : 'a node';
  if (!handOver.restored) return `moved to ${to}${handOver.from ? ` from node ${handOver.from}` : ''}`;
  return handOver.from
    ? `restored on ${to} after node ${handOver.from} stopped`
    : `restored on ${to} from its last snapshot`;
}
