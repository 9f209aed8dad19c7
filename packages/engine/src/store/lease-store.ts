import { type Database, type DebateJob, debateRequeue, PRESENCE_LOCK_CLASS, query } from '@verdict/core';
import { Context, Effect, Layer } from 'effect';
import { type Kysely, sql } from 'kysely';
import { EngineSettings, EngineStorage } from '../services.ts';
import { storeSpan } from '../tracing/spans.ts';
import { LeaseLost } from './errors.ts';
import type { DebateToRun, Lease } from './records.ts';
import { fence, type StoreFailure, type StoreTables, tryStorage, UNFINISHED } from './store-statements.ts';

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

/** The reconciler's window: how long a lease (or, with a backlog, no lease) stays before its debate is due. */
export type StaleWindow = { staleAfterMs: number; unclaimedStaleAfterMs: number; batch: number };

/**
 * Who runs a debate: the statements that take a debate's lease (claim), keep it (renew), mark it running,
 * count an interruption under it, and give it back; and the reconciler's requeue stamps for debates nobody
 * holds. Every write that acts under a lease names the epoch this node claimed (`fence`), so a node that
 * stalled and lost the debate cannot write over the node that took it. The reconciler's transitions check
 * no epoch, so they are core's (debates/debate-record.ts), called here with the store's typed failures.
 */
export class LeaseStore extends Context.Service<
  LeaseStore,
  {
    find: (debateId: string) => Effect.Effect<DebateToRun | null, StoreFailure>;
    claim: (job: DebateJob) => Effect.Effect<Claim, StoreFailure>;
    markRunning: (lease: Lease) => Effect.Effect<void, StoreFailure | LeaseLost>;
    renew: (leases: readonly Lease[]) => Effect.Effect<Set<string>, StoreFailure>;
    release: (lease: Lease) => Effect.Effect<void, StoreFailure>;
    countInterruption: (lease: Lease) => Effect.Effect<number | null, StoreFailure>;
    claimStale: (window: StaleWindow) => Effect.Effect<DebateJob[], StoreFailure>;
    unstamp: (debateIds: readonly string[]) => Effect.Effect<void, StoreFailure>;
    takeOverAll: () => Effect.Effect<DebateJob[], StoreFailure>;
  }
>()('@verdict/engine/LeaseStore') {
  static readonly layer = Layer.effect(
    LeaseStore,
    Effect.gen(function* () {
      const { db } = yield* EngineStorage;
      const { nodeId, leaseMs } = yield* EngineSettings;
      const on = { db, k: () => query<StoreTables>(db.em()), nodeId, leaseSeconds: leaseMs / 1000 };
      return LeaseStore.of({
        find: (debateId) => tryStorage(() => findDebate(on.k(), debateId)),
        claim: (job) => tryStorage(() => claim(on, job)),
        markRunning: (lease) =>
          Effect.flatMap(
            tryStorage(() => markRunning(on, lease)),
            (marked) => (marked ? Effect.void : Effect.fail(new LeaseLost({ debateId: lease.debateId }))),
          ).pipe(storeSpan('markRunning', lease.debateId)),
        renew: (leases) => tryStorage(() => renew(on, leases)),
        release: (lease) => tryStorage(() => release(on.k(), lease)),
        countInterruption: (lease) => tryStorage(() => countInterruption(on, lease)),
        claimStale: (window) => tryStorage(() => debateRequeue.stampStale(db.em(), window)),
        unstamp: (debateIds) => tryStorage(() => debateRequeue.unstamp(db.em(), debateIds)),
        takeOverAll: () => tryStorage(() => debateRequeue.takeOverAll(db.em(), nodeId)),
      });
    }),
  );
}

/** What the statements below run on: the database, this node's name and its lease period. */
type LeaseContext = {
  db: Database;
  k: () => Kysely<StoreTables>;
  nodeId: string;
  leaseSeconds: number;
};

const expiry = (leaseSeconds: number) => sql<Date>`now() + make_interval(secs => ${leaseSeconds})`;

/**
 * The lease's holder is alive: its presence lock (core's db/presence.ts) is held. A node that died lost it
 * with its session, so its debates are taken over when their job comes back, not when their lease runs out.
 */
const holderPresent = sql<boolean>`exists (select 1 from pg_locks l
  where l.locktype = 'advisory' and l.granted and l.objsubid = 2
    and l.database = (select oid from pg_database where datname = current_database())
    and l.classid = ${PRESENCE_LOCK_CLASS} and l.objid = hashtext(debates.lease_owner)::oid)`;

async function findDebate(k: Kysely<StoreTables>, debateId: string): Promise<DebateToRun | null> {
  const row = await k
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
}

async function claim(on: LeaseContext, job: DebateJob): Promise<Claim> {
  // The lease as the statement found it, to tell a hand-over from a fresh claim. Read from the statement's
  // snapshot: if another claim commits first, the update re-checks the newer row and takes it or not, and
  // the reason reported is then the one the snapshot showed (a count, not a fence).
  const claimed = await on
    .k()
    .with('before', (q) =>
      q
        .selectFrom('debates')
        .select(
          sql<HandOverReason | null>`case
            when lease_owner is null or lease_owner = ${on.nodeId} then null
            when lease_expires_at is null or lease_expires_at <= now() then 'lease_expired'
            else 'holder_gone' end`.as('taken_from'),
        )
        .where('id', '=', job.debateId),
    )
    .updateTable('debates')
    .set({
      lease_owner: on.nodeId,
      lease_epoch: sql<number>`lease_epoch + 1`,
      lease_expires_at: expiry(on.leaseSeconds),
    })
    .where('id', '=', job.debateId)
    .where('attempt', '=', job.attempt)
    .where('status', 'in', UNFINISHED)
    .where((eb) =>
      eb.or([
        eb('lease_expires_at', 'is', null),
        eb('lease_expires_at', '<=', sql<string>`now()`),
        eb('lease_owner', '=', on.nodeId),
        ...(on.db.kind === 'postgres' ? [eb.not(holderPresent)] : []),
      ]),
    )
    .returning(['lease_epoch', sql<HandOverReason | null>`(select taken_from from before)`.as('taken_from')])
    .executeTakeFirst();
  if (claimed) {
    return { kind: 'claimed', lease: { ...job, epoch: claimed.lease_epoch }, takenFrom: claimed.taken_from };
  }
  // Still unfinished means held, even if the lease ran out since the update above (each statement has its
  // own now()): answering 'gone' there would drop the dead holder's job.
  const held = await on
    .k()
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
}

/** The debate reads `running` (a paused one stays paused) under this node's lease; false when it is lost. */
async function markRunning(on: LeaseContext, lease: Lease): Promise<boolean> {
  const rows = await on
    .k()
    .updateTable('debates')
    .set({
      status: sql`case when status = 'pending' then 'running' else status end`,
      started_at: sql<Date>`coalesce(started_at, now())`,
    })
    .where(fence(lease))
    .where('lease_owner', '=', on.nodeId)
    .where('status', 'in', UNFINISHED)
    .returning('id')
    .execute();
  return rows.length > 0;
}

/** Every lease in one statement; answers the debates still held. */
async function renew(on: LeaseContext, leases: readonly Lease[]): Promise<Set<string>> {
  if (leases.length === 0) return new Set<string>();
  const held = JSON.stringify(leases.map((l) => ({ id: l.debateId, epoch: l.epoch })));
  // Locked in id order first, the order every transaction that locks several debates keeps: an unordered
  // update could hold one debate while waiting for another that a workspace's deletion holds.
  const rows = await sql<{ id: string }>`update debates d set lease_expires_at = ${expiry(on.leaseSeconds)}
      from (select l.id from debates l
              join jsonb_to_recordset(${held}::jsonb) as h(id uuid, epoch int)
                on l.id = h.id and l.lease_epoch = h.epoch
             where l.lease_owner = ${on.nodeId} and l.status in ('pending', 'running', 'paused')
             order by l.id
             for update of l) as renewed
     where d.id = renewed.id
     returning d.id`.execute(on.k());
  return new Set(rows.rows.map((row) => row.id));
}

/**
 * Clearing the owner also stops a renewal already in flight from extending the lease again. Released, the
 * lease reads as run out now, not as never taken: should the job meant to bring the debate back be lost, the
 * reconciler takes it a stale period later, not after the longer wait it gives never-claimed debates while
 * the queue has a backlog (they are most likely in it; a released one left it).
 */
async function release(k: Kysely<StoreTables>, lease: Lease): Promise<void> {
  await k
    .updateTable('debates')
    .set({ lease_owner: null, lease_expires_at: sql<Date>`now()` })
    .where('id', '=', lease.debateId)
    .where('lease_epoch', '=', lease.epoch)
    .execute();
}

/** One more interruption of the attempt; null when this node no longer holds it. */
async function countInterruption(on: LeaseContext, lease: Lease): Promise<number | null> {
  const row = await on
    .k()
    .updateTable('debates')
    .set({ interruptions: sql<number>`interruptions + 1` })
    .where(fence(lease))
    .where('lease_owner', '=', on.nodeId)
    .where('status', 'in', UNFINISHED)
    .returning('interruptions')
    .executeTakeFirst();
  return row?.interruptions ?? null;
}
