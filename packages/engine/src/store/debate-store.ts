import type { DebateEvent } from '@verdict/contracts';
import {
  type BillingTables,
  chargedFor,
  type Database,
  type DebateJob,
  type DebateTables,
  debateRequeue,
  lockChargedAccounts,
  openPendingOutcome,
  PRESENCE_LOCK_CLASS,
  query,
  queueDebateWebhook,
  queueEmbedding,
  refundDebate,
  refundUnspokenRounds,
  type WebhookTables,
} from '@verdict/core';
import { Context, Effect, Layer } from 'effect';
import { type Kysely, sql } from 'kysely';
import { EngineClock, EngineSettings, EngineStorage } from '../services.ts';
import { bridgedTraceparent } from '../tracing/otel-tracer.ts';
import { storeSpan } from '../tracing/spans.ts';
import { coalescedWrites } from './coalesced-writes.ts';
import { LeaseLost, type PermanentFailure, type StorageUnavailable, storageFailure } from './errors.ts';
import {
  type BatchWrite,
  batchKey,
  persistMany,
  saveTurns,
  type TurnWrite,
  turnKey,
  turnWriteKey,
} from './many-debate-writes.ts';
import type { DebateOutcome, DebateToRun, Lease, LogBatch, StoredTurn } from './records.ts';

type Tables = DebateTables & BillingTables & WebhookTables;
type Failure = StorageUnavailable | PermanentFailure;

/** Why a claim took a debate from another node: its lease ran out, or its presence went (its process died). */
export type HandOverReason = 'lease_expired' | 'holder_gone';

/** Who runs a debate, as the database decides it: a job only wakes a node up. */
export type Claim =
  /** `takenFrom`: why another node's lease was taken over; null when none held it (or this node did). */
  | { kind: 'claimed'; lease: Lease; takenFrom: HandOverReason | null }
  /** Another node holds a live lease; it runs out in `remainingMs` unless renewed. */
  | { kind: 'held'; remainingMs: number }
  /** Finished, deleted, or the job names an older attempt: nothing to run. */
  | { kind: 'gone' };

/** What a restore reads back: the actor's last persisted state and everything stored since. */
export type StoredLog = {
  /** The state row written with the last batch (packed: turns are references), or null before one. */
  state: unknown | null;
  turns: StoredTurn[];
  events: DebateEvent[];
};

/**
 * Every statement about a running debate, in one place: the lease (claim, mark running, renew, release,
 * count an interruption), its turns, its events with the actor's snapshot and the status they set, and its
 * final state with its last events, the refund, the charge it settles and its webhook. Each write names the lease epoch this
 * node claimed (`fence`), so a node that stalled and lost the debate cannot write over the node that took it.
 *
 * Only the statements that must check that epoch (or, for `claim`, move it) are written here: every other
 * change to a debate's record is a transition of core's debates/debate-record.ts, which this store calls for
 * the reconciler's requeue stamps. Failures are typed: a blip (StorageUnavailable), a defect
 * (PermanentFailure), a lost lease.
 */
export class DebateStore extends Context.Service<
  DebateStore,
  {
    find: (debateId: string) => Effect.Effect<DebateToRun | null, Failure>;
    claim: (job: DebateJob) => Effect.Effect<Claim, Failure>;
    markRunning: (lease: Lease) => Effect.Effect<void, Failure | LeaseLost>;
    renew: (leases: readonly Lease[]) => Effect.Effect<Set<string>, Failure>;
    release: (lease: Lease) => Effect.Effect<void, Failure>;
    countInterruption: (lease: Lease) => Effect.Effect<number | null, Failure>;
    saveTurn: (lease: Lease, turn: StoredTurn) => Effect.Effect<void, Failure | LeaseLost>;
    persist: (lease: Lease, batch: LogBatch) => Effect.Effect<void, Failure | LeaseLost>;
    storedLog: (lease: Lease) => Effect.Effect<StoredLog, Failure>;
    /** The stored events of an attempt, in order: what a finished debate's streams may still wait for. */
    storedEvents: (lease: Omit<Lease, 'epoch'>) => Effect.Effect<DebateEvent[], Failure>;
    lastSeq: (lease: Lease) => Effect.Effect<number, Failure>;
    finish: (lease: Lease, outcome: DebateOutcome, last?: LogBatch) => Effect.Effect<boolean, Failure>;
    claimStale: (window: {
      staleAfterMs: number;
      unclaimedStaleAfterMs: number;
      batch: number;
    }) => Effect.Effect<DebateJob[], Failure>;
    unstamp: (debateIds: readonly string[]) => Effect.Effect<void, Failure>;
    takeOverAll: () => Effect.Effect<DebateJob[], Failure>;
  }
>()('@verdict/engine/DebateStore') {
  static readonly layer = Layer.effect(
    DebateStore,
    Effect.gen(function* () {
      const { db } = yield* EngineStorage;
      const { nodeId, leaseMs } = yield* EngineSettings;
      const clock = yield* EngineClock;
      return DebateStore.of(makeStore(db, nodeId, leaseMs, clock.now));
    }),
  );
}

const UNFINISHED = ['pending', 'running', 'paused'] as const;

/** The fence: the debate, in this attempt, still under the epoch this node claimed. */
const fence = (lease: Lease) =>
  sql<boolean>`id = ${lease.debateId} and attempt = ${lease.attempt} and lease_epoch = ${lease.epoch}`;

/**
 * The lease's holder is alive: its presence lock (core's db/presence.ts) is held. A node that died lost it
 * with its session, so its debates are taken over when their job comes back, not when their lease runs out.
 */
const holderPresent = sql<boolean>`exists (select 1 from pg_locks l
  where l.locktype = 'advisory' and l.granted and l.objsubid = 2
    and l.database = (select oid from pg_database where datname = current_database())
    and l.classid = ${PRESENCE_LOCK_CLASS} and l.objid = hashtext(debates.lease_owner)::oid)`;

/** Statements a node's coalesced writes keep out at once, and debates in one. */
const COALESCING = { maxInFlight: 3, maxPerStatement: 50 };

const attempt = <A>(run: () => Promise<A>) => Effect.tryPromise({ try: run, catch: storageFailure });

/**
 * The debate row while this node's lease epoch is current: share-locked, or, when the batch sets the status,
 * updated to it (a paused or resumed debate reads so exactly when its event is stored).
 */
const ownerOf = (lease: Lease, status: LogBatch['status']) =>
  status === null
    ? sql`select id from debates where ${fence(lease)} for share`
    : sql`update debates set status = case when status in ('running', 'paused') then ${status} else status end
        where ${fence(lease)} returning id`;

/**
 * Events, the actor's state and the status they set go to PostgreSQL in one statement, and only while this
 * node's lease epoch is current: a restored actor therefore never lies ahead of the events it has emitted,
 * and no event is out before the status it announces.
 */
const persistStatement = (lease: Lease, batch: LogBatch) => {
  const rows = JSON.stringify(
    batch.events.map((e) => ({ seq: e.seq, type: e.type, data: e.data, at: e.at })),
  );
  const { state } = batch;
  return sql<{ owned: number }>`with owner as (
    ${ownerOf(lease, batch.status)}
  ), stored_events as (
    insert into debate_events (debate_id, attempt, seq, type, data, created_at)
    select owner.id, ${lease.attempt}, e.seq, e.type, e.data, e.at
      from owner, jsonb_to_recordset(${rows}::jsonb) as e(seq int, type text, data jsonb, at timestamptz)
    on conflict do nothing
  ), stored_state as (
    insert into debate_snapshots (debate_id, attempt, state, last_seq, updated_at)
    select owner.id, ${lease.attempt}, ${state?.packed ?? '{}'}::jsonb, ${state?.lastSeq ?? 0}, now()
      from owner where ${state !== null}::boolean
    on conflict (debate_id) do update set attempt = excluded.attempt, state = excluded.state,
      last_seq = excluded.last_seq, updated_at = excluded.updated_at
  )
  select count(*)::int as owned from owner`;
};

const eventOf =
  (lease: Omit<Lease, 'epoch'>) => (row: { seq: number; type: string; data: unknown; created_at: string }) =>
    ({
      type: row.type,
      data: row.data,
      debateId: lease.debateId,
      attempt: lease.attempt,
      seq: row.seq,
      at: new Date(row.created_at).toISOString(),
    }) as DebateEvent;

function makeStore(db: Database, nodeId: string, leaseMs: number, now: () => number) {
  const k = (): Kysely<Tables> => query<Tables>(db.em());
  const leaseSeconds = leaseMs / 1000;
  // The node's debates write their batches and turns together: a few statements in flight, each for many.
  const batchWrites = coalescedWrites<BatchWrite>(
    async (writes) => new Set((await persistMany(writes).execute(k())).rows.map((row) => row.id)),
    { keyOf: batchKey, ...COALESCING },
  );
  const turnWrites = coalescedWrites<TurnWrite>(
    async (writes) => new Set((await saveTurns(writes).execute(k())).rows.map(turnKey)),
    { keyOf: turnWriteKey, ...COALESCING },
  );
  const expiry = sql<Date>`now() + make_interval(secs => ${leaseSeconds})`;

  return {
    find: (debateId: string) =>
      attempt(async () => {
        const row = await k()
          .selectFrom('debates')
          .select([
            'id',
            'attempt',
            'status',
            'question',
            'context',
            'mode',
            'requested_agents',
            'requested_rounds',
            'preset',
            'routing',
            'funding_source',
            'early_stop_threshold',
            'compare_options',
            'evidence_engine',
          ])
          .where('id', '=', debateId)
          .executeTakeFirst();
        return row ?? null;
      }),

    claim: (job: DebateJob) =>
      attempt(async (): Promise<Claim> => {
        // The lease as the statement found it, to tell a hand-over from a fresh claim. Read from the
        // statement's snapshot: if another claim commits first, the update re-checks the newer row and takes
        // it or not, and the reason reported is then the one the snapshot showed (a count, not a fence).
        const claimed = await k()
          .with('before', (q) =>
            q
              .selectFrom('debates')
              .select(
                sql<HandOverReason | null>`case
                  when lease_owner is null or lease_owner = ${nodeId} then null
                  when lease_expires_at is null or lease_expires_at <= now() then 'lease_expired'
                  else 'holder_gone' end`.as('taken_from'),
              )
              .where('id', '=', job.debateId),
          )
          .updateTable('debates')
          .set({ lease_owner: nodeId, lease_epoch: sql<number>`lease_epoch + 1`, lease_expires_at: expiry })
          .where('id', '=', job.debateId)
          .where('attempt', '=', job.attempt)
          .where('status', 'in', UNFINISHED)
          .where((eb) =>
            eb.or([
              eb('lease_expires_at', 'is', null),
              eb('lease_expires_at', '<=', sql<string>`now()`),
              eb('lease_owner', '=', nodeId),
              ...(db.kind === 'postgres' ? [eb.not(holderPresent)] : []),
            ]),
          )
          .returning([
            'lease_epoch',
            sql<HandOverReason | null>`(select taken_from from before)`.as('taken_from'),
          ])
          .executeTakeFirst();
        if (claimed) {
          return {
            kind: 'claimed',
            lease: { ...job, epoch: claimed.lease_epoch },
            takenFrom: claimed.taken_from,
          };
        }
        // Still unfinished means held, even if the lease ran out since the update above (each statement has
        // its own now()): answering 'gone' there would drop the dead holder's job.
        const held = await k()
          .selectFrom('debates')
          .select(
            sql<number>`coalesce(greatest(0, extract(epoch from lease_expires_at - now()) * 1000), 0)::int`.as(
              'remaining_ms',
            ),
          )
          .where('id', '=', job.debateId)
          .where('attempt', '=', job.attempt)
          .where('status', 'in', UNFINISHED)
          .executeTakeFirst();
        return held ? { kind: 'held', remainingMs: held.remaining_ms } : { kind: 'gone' };
      }),

    markRunning: (lease: Lease) =>
      Effect.flatMap(
        attempt(() =>
          k()
            .updateTable('debates')
            .set({
              status: sql`case when status = 'pending' then 'running' else status end`,
              started_at: sql<Date>`coalesce(started_at, now())`,
            })
            .where(fence(lease))
            .where('lease_owner', '=', nodeId)
            .where('status', 'in', UNFINISHED)
            .returning('id')
            .execute(),
        ),
        (rows) => (rows.length > 0 ? Effect.void : Effect.fail(new LeaseLost({ debateId: lease.debateId }))),
      ).pipe(storeSpan('markRunning', lease.debateId)),

    renew: (leases: readonly Lease[]) =>
      attempt(async () => {
        if (leases.length === 0) return new Set<string>();
        const held = JSON.stringify(leases.map((l) => ({ id: l.debateId, epoch: l.epoch })));
        // Locked in id order first, the order every transaction that locks several debates keeps: an
        // unordered update could hold one debate while waiting for another that a workspace's deletion holds.
        const rows = await sql<{ id: string }>`update debates d set lease_expires_at = ${expiry}
            from (select l.id from debates l
                    join jsonb_to_recordset(${held}::jsonb) as h(id uuid, epoch int)
                      on l.id = h.id and l.lease_epoch = h.epoch
                   where l.lease_owner = ${nodeId} and l.status in ('pending', 'running', 'paused')
                   order by l.id
                   for update of l) as renewed
           where d.id = renewed.id
           returning d.id`.execute(k());
        return new Set(rows.rows.map((row) => row.id));
      }),

    // Clearing the owner also stops a renewal already in flight from extending the lease again. Released, the
    // lease reads as run out now, not as never taken: should the job meant to bring the debate back be lost,
    // the reconciler takes it a stale period later, not after the longer wait it gives never-claimed debates
    // while the queue has a backlog (they are most likely in it; a released one left it).
    release: (lease: Lease) =>
      attempt(() =>
        k()
          .updateTable('debates')
          .set({ lease_owner: null, lease_expires_at: sql<Date>`now()` })
          .where('id', '=', lease.debateId)
          .where('lease_epoch', '=', lease.epoch)
          .execute(),
      ).pipe(Effect.asVoid),

    countInterruption: (lease: Lease) =>
      attempt(async () => {
        const row = await k()
          .updateTable('debates')
          .set({ interruptions: sql<number>`interruptions + 1` })
          .where(fence(lease))
          .where('lease_owner', '=', nodeId)
          .where('status', 'in', UNFINISHED)
          .returning('interruptions')
          .executeTakeFirst();
        return row?.interruptions ?? null;
      }),

    // The turn's key (debate, attempt, round, agent) makes a repeated write a no-op.
    saveTurn: (lease: Lease, turn: StoredTurn) =>
      Effect.flatMap(
        attempt(() => turnWrites({ lease, turn })),
        (written) => (written ? Effect.void : Effect.fail(new LeaseLost({ debateId: lease.debateId }))),
      ).pipe(storeSpan('saveTurn', lease.debateId)),

    persist: (lease: Lease, batch: LogBatch) =>
      Effect.flatMap(
        attempt(() => batchWrites({ lease, batch })),
        (written) => (written ? Effect.void : Effect.fail(new LeaseLost({ debateId: lease.debateId }))),
      ).pipe(storeSpan('persist', lease.debateId)),

    storedLog: (lease: Lease) =>
      attempt(async (): Promise<StoredLog> => {
        const [snapshot, turns, events] = await Promise.all([
          k()
            .selectFrom('debate_snapshots')
            .select('state')
            .where('debate_id', '=', lease.debateId)
            .where('attempt', '=', lease.attempt)
            .executeTakeFirst(),
          k()
            .selectFrom('debate_turns')
            .select([
              'agent',
              'round',
              'content',
              'model',
              'target_agent',
              'position',
              'citations',
              'input_tokens',
              'output_tokens',
              'cost_nano_usd',
            ])
            .where('debate_id', '=', lease.debateId)
            .where('attempt', '=', lease.attempt)
            .orderBy('round')
            .orderBy('created_at')
            .orderBy('agent')
            .execute(),
          k()
            .selectFrom('debate_events')
            .select(['seq', 'type', 'data', 'created_at'])
            .where('debate_id', '=', lease.debateId)
            .where('attempt', '=', lease.attempt)
            .orderBy('seq')
            .execute(),
        ]);
        return {
          state: snapshot?.state ?? null,
          turns: turns.map((row) => ({
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
          })),
          events: events.map(eventOf(lease)),
        };
      }),

    storedEvents: (lease: Omit<Lease, 'epoch'>) =>
      attempt(async () => {
        const rows = await k()
          .selectFrom('debate_events')
          .select(['seq', 'type', 'data', 'created_at'])
          .where('debate_id', '=', lease.debateId)
          .where('attempt', '=', lease.attempt)
          .orderBy('seq')
          .execute();
        return rows.map(eventOf(lease));
      }),

    lastSeq: (lease: Lease) =>
      attempt(async () => {
        const row = await k()
          .selectFrom('debate_events')
          .select((eb) => eb.fn.coalesce(eb.fn.max('seq'), sql<number>`0`).as('seq'))
          .where('debate_id', '=', lease.debateId)
          .where('attempt', '=', lease.attempt)
          .executeTakeFirst();
        return row?.seq ?? 0;
      }),

    finish: (lease: Lease, outcome: DebateOutcome, last?: LogBatch) =>
      Effect.flatMap(currentTraceparent, (traceParent) =>
        attempt(() =>
          // The events announcing the end commit with it: no stream has them before a read shows the end.
          db.em().transactional((em) => finishIn(em, lease, outcome, new Date(now()), last, traceParent)),
        ),
      ).pipe(storeSpan('finish', lease.debateId)),

    // The reconciler's transitions check no epoch, so they are core's (debates/debate-record.ts).
    claimStale: (window: { staleAfterMs: number; unclaimedStaleAfterMs: number; batch: number }) =>
      attempt(() => debateRequeue.stampStale(db.em(), window)),

    unstamp: (debateIds: readonly string[]) => attempt(() => debateRequeue.unstamp(db.em(), debateIds)),

    takeOverAll: () => attempt(() => debateRequeue.takeOverAll(db.em(), nodeId)),
  };
}

/** The running span as a traceparent, for the webhooks a finish queues to continue the debate's trace. */
const currentTraceparent = Effect.map(Effect.option(Effect.currentSpan), (span) =>
  span._tag === 'Some' ? bridgedTraceparent(span.value) : undefined,
);

/** A value as a jsonb parameter: the driver would send an array as a PostgreSQL array, not as JSON. */
const jsonb = <T>(value: T) => sql<T>`${JSON.stringify(value)}::jsonb`;

/** Failures that gave the caller nothing through no fault of theirs: the provider's, or the engine's. */
const REFUNDED_FAILURES = new Set(['PROVIDER_ERROR', 'PROVIDER_TIMEOUT', 'INTERNAL_ERROR']);

/**
 * The final state of the attempt, once, with what goes with it in the same transaction: the refund of a
 * failure that was not the caller's fault, the credits it was charged in the end (`cost.credits`), its
 * webhook, for a completed debate its pending outcome (with a score refresh) and its embedding's turn, and
 * the log's `last` batch (the events announcing the end). Only while `lease` holds and the debate is
 * unfinished, so a second finish (a redelivered job, a node that lost its lease) changes nothing. Returns
 * whether this call stored it.
 *
 * A refund locks the accounts it credits before the debate's row, in the lock order every transaction
 * touching both keeps (ARCHITECTURE.md, "Lock order"): a retry holds the owner's row while it waits for the
 * debate's, so taking them the other way round here deadlocks with it.
 */
async function finishIn(
  em: Parameters<typeof query>[0],
  lease: Lease,
  outcome: DebateOutcome,
  at: Date,
  last: LogBatch | undefined,
  traceParent: string | undefined,
): Promise<boolean> {
  const k = query<Tables>(em);
  const refunded = outcome.status === 'failed' && REFUNDED_FAILURES.has(outcome.code);
  // A debate that stopped early because its agents converged gets its unspoken rounds' share back.
  const stoppedEarly = outcome.status === 'completed' ? outcome.verdict.stoppedEarly : undefined;
  if (refunded || stoppedEarly) await lockChargedAccounts(em, lease.debateId);
  const fields =
    outcome.status === 'completed'
      ? {
          status: 'completed' as const,
          verdict: jsonb(outcome.verdict),
          agent_count: outcome.agentCount,
          round_count: outcome.roundCount,
          agents_used: jsonb(outcome.agentsUsed),
          domain: outcome.domain,
        }
      : { status: 'failed' as const, failure_code: outcome.code, failure_message: outcome.message };
  const stored = await k
    .updateTable('debates')
    .set({
      ...fields,
      cost: jsonb(outcome.cost),
      completed_at: at,
      lease_owner: null,
      lease_expires_at: null,
    })
    .where(fence(lease))
    .where('status', 'in', UNFINISHED)
    .returning('id')
    .executeTakeFirst();
  if (!stored) return false;
  if (refunded) await refundDebate(em, lease.debateId, at);
  if (stoppedEarly) {
    const rounds = { spoken: stoppedEarly.afterRound, planned: stoppedEarly.plannedRounds };
    await refundUnspokenRounds(em, lease.debateId, rounds, at);
  }
  const event = outcome.status === 'completed' ? 'debate.completed' : 'debate.failed';
  // Independent of one another once the row is final: sent together, the transaction's connection runs them
  // back to back instead of waiting for this process between each (a busy node's event loop is slow to).
  // All of them settle before the transaction ends, failed or not: a chain still running after the first
  // failure (the credits' update after their read) would otherwise send its statement after the rollback.
  await allSettledOrFirstFailure([
    outcome.status === 'completed' &&
      openPendingOutcome(em, {
        debateId: lease.debateId,
        confidence: outcome.verdict.confidence,
        recommendation: outcome.verdict.recommendation,
        domain: outcome.domain,
      }),
    outcome.status === 'completed' && queueEmbedding(em, lease.debateId),
    outcome.calls?.length &&
      k
        .insertInto('debate_calls')
        .values(
          outcome.calls.map((call, index) => ({
            debate_id: lease.debateId,
            attempt: lease.attempt,
            seq: index + 1,
            kind: call.kind,
            model: call.model,
            input_tokens: call.inputTokens,
            output_tokens: call.outputTokens,
            cost_nano_usd: call.costNanoUsd,
          })),
        )
        .onConflict((conflict) => conflict.doNothing())
        .execute(),
    chargedFor(em, lease.debateId).then((credits) =>
      // By id alone: the fenced update above holds the row in this transaction.
      k
        .updateTable('debates')
        .set({ cost: sql`jsonb_set(cost, '{credits}', to_jsonb(${credits}::int))` })
        .where('id', '=', lease.debateId)
        .execute(),
    ),
    queueDebateWebhook(em, {
      debateId: lease.debateId,
      event,
      dedupeKey: `${event}:${lease.debateId}:${lease.attempt}`,
      traceParent,
      payload:
        outcome.status === 'completed'
          ? {
              debateId: lease.debateId,
              status: 'completed',
              recommendation: outcome.verdict.recommendation,
              confidence: outcome.verdict.confidence,
              oneLiner: outcome.verdict.oneLiner,
            }
          : { debateId: lease.debateId, status: 'failed', code: outcome.code, error: outcome.message },
    }),
    last && (last.events.length > 0 || last.state !== null)
      ? persistStatement(lease, last).execute(k)
      : undefined,
  ]);
  return true;
}

/** Waits for every one of `work` to settle, then fails with the first failure if any failed. */
async function allSettledOrFirstFailure(work: readonly unknown[]): Promise<void> {
  const failed = (await Promise.allSettled(work)).find((result) => result.status === 'rejected');
  if (failed) throw failed.reason;
}
