import type { DebateEvent, DebateEventBody } from '@verdict/contracts';
import type { EventBus } from '../bus/ports.ts';
import type { Database } from '../db/orm.ts';
import type { Clock } from '../shared/clock.ts';
import { LeaseLost, type StorageRetryPolicy, withStorageRetry } from './storage-retry.ts';

export type DurableLog = {
  /** Numbers the event and queues it; it is stored, then published, in order, behind the caller. */
  emit: (body: DebateEventBody) => void;
  /** The actor moved: its snapshot is written with the next batch (or on its own if no event comes). */
  stateChanged: () => void;
  /** Resolves once everything emitted or changed so far is stored and published; rejects on failure. */
  flush: () => Promise<void>;
  readonly lastSeq: number;
};

export type DurableLogScope = {
  debateId: string;
  attempt: number;
  /** The lease epoch this node claimed; a write under another epoch is refused (LeaseLost). */
  epoch: number;
  /** The last stored seq of this attempt; numbering continues after it. */
  afterSeq: number;
  /** Replay keys of the events already stored (see replayKey). */
  storedKeys: Iterable<string>;
};

export type DurableLogOptions = {
  /** The serialised snapshot to store with a batch, or null while the actor has none worth keeping. */
  snapshot: () => { state: string } | null;
  retry: StorageRetryPolicy;
  /** Called once when a write fails for good (LeaseLost, or an outage longer than the tolerance). */
  onFailure: (error: unknown) => void;
};

/**
 * Events that work re-run after a restore emits again — a round's thinking, turns and failures. A second
 * event with the same key is dropped, so a restored debate's stream has neither gaps nor duplicates.
 * Every other event comes from a state transition, which a restored actor does not repeat.
 */
export function replayKey(body: Pick<DebateEvent, 'type' | 'data'>): string | null {
  const data = body.data as { agent?: string; round?: number };
  switch (body.type) {
    case 'agent.thinking':
      return `thinking:${data.round}:${data.agent}`;
    case 'argument':
    case 'rebuttal':
      return `turn:${data.round}:${data.agent}`;
    case 'agent.failed':
      return `failed:${data.round}:${data.agent}`;
    default:
      return null;
  }
}

/**
 * Events and the actor's snapshot go to PostgreSQL together in one statement, and only while this node's
 * lease epoch is current: a restored actor therefore never lies ahead of the events it has emitted.
 */
const PERSIST = `with owner as (
    select id from debates where id = ? and attempt = ? and lease_epoch = ? for share
  ), stored_events as (
    insert into debate_events (debate_id, attempt, seq, type, data, created_at)
    select owner.id, ?, e.seq, e.type, e.data, e.at
      from owner, jsonb_to_recordset(?::jsonb) as e(seq int, type text, data jsonb, at timestamptz)
    on conflict do nothing
  ), stored_state as (
    insert into debate_snapshots (debate_id, attempt, state, last_seq, updated_at)
    select owner.id, ?, ?::jsonb, ?, now() from owner where ?::boolean
    on conflict (debate_id) do update set attempt = excluded.attempt, state = excluded.state,
      last_seq = excluded.last_seq, updated_at = excluded.updated_at
  )
  select count(*)::int as owned from owner`;

/**
 * The durable, gap-free stream of one debate attempt plus its snapshots. Whatever accumulates while a write
 * is in flight goes out as the next batch (group commit), so a busy node makes few round trips. After a
 * failure nothing more is written, so the stored log never has a hole; the job is retried from the last
 * stored state instead.
 */
export function createDurableLog(
  db: Database,
  bus: EventBus,
  clock: Clock,
  scope: DurableLogScope,
  options: DurableLogOptions,
): DurableLog {
  const seen = new Set(scope.storedKeys);
  let seq = scope.afterSeq;
  let pending: DebateEvent[] = [];
  let dirty = false;
  let writing = false;
  let done: Promise<void> = Promise.resolve();
  let failure: unknown = null;

  const persist = async (batch: DebateEvent[], snapshot: { state: string } | null) => {
    const rows = batch.map((e) => ({ seq: e.seq, type: e.type, data: e.data, at: e.at }));
    const [result] = await db.execute<{ owned: number }>(PERSIST, [
      scope.debateId,
      scope.attempt,
      scope.epoch,
      scope.attempt,
      JSON.stringify(rows),
      scope.attempt,
      snapshot?.state ?? '{}',
      batch.at(-1)?.seq ?? seq,
      snapshot !== null,
    ]);
    if (!result || Number(result.owned) === 0) throw new LeaseLost(scope.debateId);
  };

  const drain = async () => {
    await null; // let everything emitted in the current synchronous step join this batch
    try {
      while ((pending.length > 0 || dirty) && !failure) {
        const batch = pending;
        pending = [];
        dirty = false;
        const snapshot = options.snapshot();
        if (batch.length === 0 && snapshot === null) continue;
        try {
          await withStorageRetry(() => persist(batch, snapshot), options.retry);
          // Publishing goes in order over one connection; JetStream drops a repeat by its message id.
          await withStorageRetry(
            () => Promise.all(batch.map((event) => bus.publish(event))),
            options.retry,
            () => true,
          );
        } catch (error) {
          failure = error;
          options.onFailure(error);
        }
      }
    } finally {
      writing = false;
    }
  };

  const schedule = () => {
    if (writing || failure) return;
    writing = true;
    done = drain();
  };

  return {
    emit: (body) => {
      const key = replayKey(body);
      if (key !== null) {
        if (seen.has(key)) return;
        seen.add(key);
      }
      pending.push({
        ...body,
        debateId: scope.debateId,
        attempt: scope.attempt,
        seq: ++seq,
        at: new Date(clock.now()).toISOString(),
      } as DebateEvent);
      schedule();
    },
    stateChanged: () => {
      dirty = true;
      schedule();
    },
    flush: async () => {
      await done;
      if (failure) throw failure;
    },
    get lastSeq() {
      return seq;
    },
  };
}
