import type { DebateEvent } from '@verdict/contracts';
import type { TransitionRecord } from '../bus/ports.ts';
import type { Database } from '../db/orm.ts';
import type { Turn } from './prompts.ts';
import { PermanentFailure } from './storage-retry.ts';

/**
 * What a node needs to pick up a debate another node left unfinished: the actor's last persisted snapshot
 * and everything stored since — the turns (their text lives only in debate_turns, the snapshot refers to
 * them) and the events (so nothing already streamed is emitted twice).
 */
export type Restoration = {
  /** The machine's persisted snapshot with its turns filled back in; null when none was written yet. */
  machine: unknown | null;
  history: TransitionRecord[];
  turns: StoredTurn[];
  /** Debaters that already failed a round for good, from the stored agent.failed events. */
  failures: { agent: string; round: number; reason: string }[];
  events: DebateEvent[];
};

export type StoredTurn = Turn & { inputTokens: number; outputTokens: number };

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
      if (!turn) throw new PermanentFailure(`snapshot refers to turn ${ref}, which is not stored`);
      return { ...turn };
    }
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v)]));
  };
  return fill(json) as PersistedState;
}

export async function loadRestoration(db: Database, debateId: string, attempt: number): Promise<Restoration> {
  const [snapshotRows, turnRows, eventRows] = await Promise.all([
    db.execute<{ state: unknown }>('select state from debate_snapshots where debate_id = ? and attempt = ?', [
      debateId,
      attempt,
    ]),
    db.execute<{
      agent: string;
      round: number;
      content: string;
      model: string;
      target_agent: string | null;
      input_tokens: number;
      output_tokens: number;
    }>(
      `select agent, round, content, model, target_agent, input_tokens, output_tokens from debate_turns
        where debate_id = ? and attempt = ? order by round, created_at, agent`,
      [debateId, attempt],
    ),
    db.execute<{ seq: number; type: string; data: Record<string, unknown>; created_at: Date | string }>(
      'select seq, type, data, created_at from debate_events where debate_id = ? and attempt = ? order by seq',
      [debateId, attempt],
    ),
  ]);
  const turns: StoredTurn[] = turnRows.map((row) => ({
    agent: row.agent,
    round: Number(row.round),
    content: row.content,
    model: row.model,
    targetAgent: row.target_agent,
    inputTokens: Number(row.input_tokens),
    outputTokens: Number(row.output_tokens),
  }));
  const events = eventRows.map(
    (row) =>
      ({
        type: row.type,
        data: row.data,
        debateId,
        attempt,
        seq: Number(row.seq),
        at: new Date(row.created_at).toISOString(),
      }) as DebateEvent,
  );
  const failures = events.flatMap((event) =>
    event.type === 'agent.failed'
      ? [{ agent: event.data.agent, round: event.data.round, reason: event.data.reason }]
      : [],
  );
  const stored = snapshotRows[0]?.state;
  const plainTurns = turns.map(({ inputTokens: _i, outputTokens: _o, ...turn }) => turn);
  const state = stored ? unpackState(stored, plainTurns) : null;
  return { machine: state?.machine ?? null, history: state?.history ?? [], turns, failures, events };
}
