import type { DebateEvent } from '@verdict/contracts';
import { prepared, query } from '@verdict/core';
import { Context, Effect, Layer } from 'effect';
import { type Kysely, sql } from 'kysely';
import { EngineStorage } from '../services.ts';
import { storeSpan } from '../tracing/spans.ts';
import { coalescedWrites } from './coalesced-writes.ts';
import { LeaseLost } from './errors.ts';
import {
  type BatchWrite,
  batchKey,
  persistMany,
  saveTurns,
  type TurnWrite,
  turnKey,
  turnWriteKey,
} from './many-debate-writes.ts';
import type { Lease, LogBatch, StoredTurn } from './records.ts';
import { type StoreFailure, type StoreTables, tryStorage } from './store-statements.ts';

/** What a restore reads back: the actor's last persisted state and everything stored since. */
export type StoredLog = {
  /** The state row written with the last batch (packed: turns are references), or null before one. */
  state: unknown | null;
  turns: StoredTurn[];
  events: DebateEvent[];
};

/** An attempt without its lease epoch: what reads of its log name. */
type AttemptOf = Omit<Lease, 'epoch'>;

/**
 * An attempt's log: its turns, its events with the actor's snapshot and the status they set, and the reads
 * that bring them back. The writes of all the node's debates go out together, a few statements in flight,
 * each for many debates (many-debate-writes.ts), and each only while this node's lease epoch is current: a
 * write that finds the lease gone fails with LeaseLost.
 */
export class AttemptLog extends Context.Service<
  AttemptLog,
  {
    /** The turn's key (debate, attempt, round, agent) makes a repeated write a no-op. */
    saveTurn: (lease: Lease, turn: StoredTurn) => Effect.Effect<void, StoreFailure | LeaseLost>;
    persist: (lease: Lease, batch: LogBatch) => Effect.Effect<void, StoreFailure | LeaseLost>;
    storedLog: (lease: Lease) => Effect.Effect<StoredLog, StoreFailure>;
    /** The stored events of an attempt, in order: what a finished debate's streams may still wait for. */
    storedEvents: (attempt: AttemptOf) => Effect.Effect<DebateEvent[], StoreFailure>;
    lastSeq: (lease: Lease) => Effect.Effect<number, StoreFailure>;
  }
>()('@verdict/engine/AttemptLog') {
  static readonly layer = Layer.effect(
    AttemptLog,
    Effect.gen(function* () {
      const { db } = yield* EngineStorage;
      const k = (): Kysely<StoreTables> => query<StoreTables>(db.em());
      const batchWrites = coalescedWrites<BatchWrite>(
        async (writes) => new Set((await persistMany(writes).execute(k())).rows.map((row) => row.id)),
        { keyOf: batchKey, ...COALESCING },
      );
      const turnWrites = coalescedWrites<TurnWrite>(
        async (writes) => new Set((await saveTurns(writes).execute(k())).rows.map(turnKey)),
        { keyOf: turnWriteKey, ...COALESCING },
      );
      const underLease = (lease: Lease, write: () => Promise<boolean>) =>
        Effect.flatMap(tryStorage(write), (written) =>
          written ? Effect.void : Effect.fail(new LeaseLost({ debateId: lease.debateId })),
        );
      return AttemptLog.of({
        saveTurn: (lease, turn) =>
          underLease(lease, () => turnWrites({ lease, turn })).pipe(storeSpan('saveTurn', lease.debateId)),
        persist: (lease, batch) =>
          underLease(lease, () => batchWrites({ lease, batch })).pipe(storeSpan('persist', lease.debateId)),
        storedLog: (lease) => tryStorage(() => storedLog(k(), lease)),
        storedEvents: (attempt) => tryStorage(() => storedEvents(k(), attempt)),
        lastSeq: (lease) => tryStorage(() => lastSeq(k(), lease)),
      });
    }),
  );
}

/** Statements a node's coalesced writes keep out at once, and debates in one. */
const COALESCING = { maxInFlight: 3, maxPerStatement: 50 };

/**
 * The attempt's snapshot, turns and events in one statement: a node taking over many debates at once (a dead
 * node's) restores each in one round trip on one connection, where three reads each took one from the pool.
 */
async function storedLog(k: Kysely<StoreTables>, lease: Lease): Promise<StoredLog> {
  const { debateId: id, attempt } = lease;
  const { rows } = await prepared(
    'stored_log',
    sql<{ state: unknown | null; turns: TurnRow[]; events: EventRow[] }>`select
      (select state from debate_snapshots where debate_id = ${id} and attempt = ${attempt}) as state,
      coalesce((select json_agg(t order by t.round, t.created_at, t.agent)
         from (select agent, round, content, model, target_agent, position, citations, input_tokens,
                      output_tokens, cost_nano_usd, created_at
                 from debate_turns where debate_id = ${id} and attempt = ${attempt}) t), '[]') as turns,
      coalesce((select json_agg(e order by e.seq)
         from (select seq, type, data, created_at
                 from debate_events where debate_id = ${id} and attempt = ${attempt}) e), '[]') as events`,
  ).execute(k);
  const row = rows[0];
  return {
    state: row?.state ?? null,
    turns: (row?.turns ?? []).map(turnOf),
    events: (row?.events ?? []).map((event) => eventOf(lease, event)),
  };
}

/** A stored turn's columns, as a row or a JSON object (bigint cost as text or number). */
type TurnRow = {
  agent: string;
  round: number;
  content: string;
  model: string;
  target_agent: string | null;
  position: StoredTurn['position'];
  citations: StoredTurn['citations'];
  input_tokens: number;
  output_tokens: number;
  cost_nano_usd: string | number | null;
};

const turnOf = (row: TurnRow): StoredTurn => ({
  agent: row.agent,
  round: row.round,
  content: row.content,
  model: row.model,
  targetAgent: row.target_agent ?? null,
  position: row.position ?? null,
  citations: row.citations ?? null,
  inputTokens: row.input_tokens,
  outputTokens: row.output_tokens,
  costNanoUsd: row.cost_nano_usd === null ? null : Number(row.cost_nano_usd),
});

/** A stored event's columns, as a row or a JSON object. */
type EventRow = { seq: number; type: string; data: unknown; created_at: string };

const eventOf = (attempt: AttemptOf, row: EventRow) =>
  ({
    type: row.type,
    data: row.data,
    debateId: attempt.debateId,
    attempt: attempt.attempt,
    seq: row.seq,
    at: new Date(row.created_at).toISOString(),
  }) as DebateEvent;

/** From the view that reads a transcript once the rows are dropped: a finished debate may be an old one. */
async function storedEvents(k: Kysely<StoreTables>, attempt: AttemptOf): Promise<DebateEvent[]> {
  const rows = await k
    .selectFrom('debate_event_log')
    .select(['seq', 'type', 'data', 'created_at'])
    .where('debate_id', '=', attempt.debateId)
    .where('attempt', '=', attempt.attempt)
    .orderBy('seq')
    .execute();
  return rows.map((row) => eventOf(attempt, row));
}

async function lastSeq(k: Kysely<StoreTables>, lease: Lease): Promise<number> {
  const row = await k
    .selectFrom('debate_events')
    .select((eb) => eb.fn.coalesce(eb.fn.max('seq'), sql<number>`0`).as('seq'))
    .where('debate_id', '=', lease.debateId)
    .where('attempt', '=', lease.attempt)
    .executeTakeFirst();
  return row?.seq ?? 0;
}
