import type { DebateStreamEvent } from '@verdict/sdk';
import type { Citation } from './contracts.ts';

/** A turn's stated position, as the stream sends it (the engine reads it from the turn's POSITION line). */
type TurnPosition = { recommendation?: string; stance?: string; confidence?: number; ranking?: string[] };

/** One spoken turn: an argument, or a rebuttal aimed at another agent. */
export type SpokenTurn = {
  claimId: string;
  kind: 'argument' | 'rebuttal';
  agent: string;
  round: number;
  content: string;
  model: string;
  targetAgent: string | null;
  /** What the turn stated it stands for; absent or null when unknown. */
  position?: TurnPosition | null;
  /** Its citations of passages as the engine checked them (evidence engine on; absent otherwise). */
  citations?: Citation[];
};

export type PanelSeat = { name: string; role: string; model: string };

/** What a debate's events say so far: the page draws this, whether the events came live or replayed. */
export type DebateLog = {
  /** The highest event id applied: events at or below it were seen (a reconnect may send them again). */
  lastId: number;
  panel: PanelSeat[];
  rounds: number | null;
  round: number;
  turns: SpokenTurn[];
  thinking: string[];
  paused: boolean;
  injected: { content: string; forRound: number }[];
  /** The panel's convergence after each round (0–1); `stopping`: the debate stopped early on it. */
  convergence: { round: number; score: number; threshold: number | null; stopping: boolean }[];
  judging: boolean;
  verdict: { recommendation: string; oneLiner: string; reasoning: string; confidence: number } | null;
  ended: { status: 'completed' } | { status: 'failed'; code: string; error: string } | null;
  failedAgents: { agent: string; round: number; reason: string }[];
};

export const EMPTY_LOG: DebateLog = {
  lastId: 0,
  panel: [],
  rounds: null,
  round: 0,
  turns: [],
  thinking: [],
  paused: false,
  injected: [],
  convergence: [],
  judging: false,
  verdict: null,
  ended: null,
  failedAgents: [],
};

type LooseEvent = { type: string; id: number; data: unknown };

/** The log after one more event; an event already applied (same or lower id) changes nothing. */
export function applyEvent(log: DebateLog, event: DebateStreamEvent | LooseEvent): DebateLog {
  if (event.id <= log.lastId) return log;
  const next = { ...log, lastId: event.id };
  const e = event as DebateStreamEvent;
  switch (e.type) {
    case 'debate.started':
      return { ...next, panel: e.data.panel, rounds: e.data.rounds };
    case 'round.started':
      return { ...next, round: e.data.round, paused: false, thinking: [] };
    case 'agent.thinking':
      return { ...next, thinking: [...next.thinking.filter((a) => a !== e.data.agent), e.data.agent] };
    case 'argument':
    case 'rebuttal':
      return {
        ...next,
        thinking: next.thinking.filter((a) => a !== e.data.agent),
        turns: [
          ...next.turns,
          {
            claimId: e.data.claimId,
            kind: e.type,
            agent: e.data.agent,
            round: e.data.round,
            content: e.data.content,
            model: e.data.model,
            targetAgent: e.type === 'rebuttal' ? e.data.targetAgent : null,
            position: e.data.position ?? null,
            citations: e.data.citations,
          },
        ],
      };
    case 'agent.failed':
      return {
        ...next,
        thinking: next.thinking.filter((a) => a !== e.data.agent),
        failedAgents: [...next.failedAgents, e.data as DebateLog['failedAgents'][number]],
      };
    case 'debate.paused':
      return { ...next, paused: true };
    case 'debate.resumed':
      return { ...next, paused: false };
    case 'content.injected':
      return { ...next, injected: [...next.injected, e.data] };
    case 'round.converged':
      return { ...next, convergence: [...next.convergence.filter((c) => c.round !== e.data.round), e.data] };
    case 'synthesis.started':
      return { ...next, judging: true, thinking: [] };
    case 'verdict':
      return { ...next, verdict: e.data };
    case 'debate.completed':
      return { ...next, judging: false, ended: { status: 'completed' } };
    case 'debate.failed':
      return { ...next, judging: false, ended: { status: 'failed', code: e.data.code, error: e.data.error } };
    default:
      return next;
  }
}

/** Every event of a list, in order (a share page's replay, a state chart's stored events). */
export const logOf = (events: LooseEvent[]): DebateLog => events.reduce(applyEvent, EMPTY_LOG);
