import type { DebateEventBody, DebateEventType } from '@verdict/contracts';

/**
 * What a read of the debate (its status, verdict, cost, counts, analytics) shows once an event is out, and
 * so what must be committed before anyone can receive the event:
 *
 * - `progress`: nothing beyond the debate being under way, which the row says from before the actor starts
 *   (markRunning commits `running` first; a restored paused debate already reads `paused`).
 * - `turn`: the turn it reports, stored in `debate_turns` before the machine hears of it (recordTurn).
 * - `{ status }`: the row's status, written by the statement that stores the event.
 * - `final`: the final state (status, verdict, cost, refund): the event is held back and stored in the
 *   transaction that stores the final state, and published only once that transaction has committed.
 *
 * Every event is published only after the statement that stores it commits (durable-log.ts). Adding an
 * event type to contracts fails type-checking here until someone decides.
 */
export type EventEffect = 'progress' | 'turn' | { readonly status: 'running' | 'paused' } | 'final';

export const EVENT_EFFECTS: { readonly [T in DebateEventType]: EventEffect } = {
  'debate.started': 'progress',
  'round.started': 'progress',
  'agent.thinking': 'progress',
  argument: 'turn',
  rebuttal: 'turn',
  'agent.failed': 'progress',
  'debate.paused': { status: 'paused' },
  'debate.resumed': { status: 'running' },
  'content.injected': 'progress',
  'round.converged': 'progress',
  // A skip out of a pause goes straight to judging: the row must stop saying paused.
  'synthesis.started': { status: 'running' },
  verdict: 'final',
  'debate.completed': 'final',
  'debate.failed': 'final',
};

export const isFinalEvent = (event: Pick<DebateEventBody, 'type'>) => EVENT_EFFECTS[event.type] === 'final';

/** The status a batch leaves the row in: that of its last event that sets one, or null to leave it. */
export function statusAfter(batch: readonly Pick<DebateEventBody, 'type'>[]): 'running' | 'paused' | null {
  for (let i = batch.length - 1; i >= 0; i--) {
    const effect = EVENT_EFFECTS[(batch[i] as Pick<DebateEventBody, 'type'>).type];
    if (typeof effect === 'object') return effect.status;
  }
  return null;
}
