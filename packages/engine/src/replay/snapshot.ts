import type { TransitionRecord } from '@verdict/core';
import type { Turn } from '../machine/prompts.ts';
import { PermanentFailure } from '../store/errors.ts';

/** The state row written with each batch of events: the machine snapshot plus its transition history. */
export type PersistedState = { machine: unknown; history: TransitionRecord[] };

const isTurn = (value: unknown): value is Turn => {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.agent === 'string' &&
    typeof v.round === 'number' &&
    typeof v.content === 'string' &&
    'model' in v &&
    'targetAgent' in v
  );
};

const turnKey = (turn: { round: number; agent: string }) => `${turn.round}:${turn.agent}`;

/**
 * Serialises a state for storage with every turn replaced by a reference: a snapshot stays a few KiB however
 * long the debate, instead of re-writing the whole transcript at every step.
 */
export function packState(state: PersistedState): string {
  return JSON.stringify(state, (_key, value) => (isTurn(value) ? { $turn: turnKey(value) } : value));
}

export function unpackState(json: unknown, turns: Turn[]): PersistedState {
  const byKey = new Map(turns.map((turn) => [turnKey(turn), turn]));
  const fill = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(fill);
    if (typeof value !== 'object' || value === null) return value;
    const ref = (value as { $turn?: unknown }).$turn;
    if (typeof ref === 'string') {
      const turn = byKey.get(ref);
      if (!turn)
        throw new PermanentFailure({ reason: `snapshot refers to turn ${ref}, which is not stored` });
      return { ...turn };
    }
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v)]));
  };
  return fill(json) as PersistedState;
}
