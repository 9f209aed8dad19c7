import { type Database, type DebateJob, debateRequeue, prepared, query } from '@verdict/core';
import { Context, Effect, Layer } from 'effect';
import { type Kysely, sql } from 'kysely';
import { EngineSettings, EngineStorage } from '../services.ts';
import { storeSpan } from '../tracing/spans.ts';
import { coalescedCalls, coalescedWrites } from './coalesced-writes.ts';
import { LeaseLost } from './errors.ts';
import {
  holderPresent,
  type Orphan,
  orphansOf,
  type PresentHolders,
  presentHolders,
} from './holder-presence.ts';
import type { DebateToRun, Lease } from './records.ts';
import { fence, type StoreFailure, type StoreTables, tryStorage, UNFINISHED } from './store-statements.ts';

/** Why a claim took a debate from another node: its lease ran out, or its presence went (its process died). */
export type HandOverReason = 'lease_expired' | 'holder_gone';

/** Who runs a debate, as the database decides it: a job only wakes a node up. */
export type Claim =
  /**
   * Taken: `takenFrom` says why another node's lease was taken over (null when none held it, or this node
   * did); `fresh`, that no node started this attempt before (nothing stored to restore).
   */
  | { kind: 'claimed'; lease: Lease; takenFrom: HandOverReason | null; fresh: boolean; debate: DebateToRun }
  /** Another node holds a live lease; it runs out in `remainingMs` unless renewed. */
  | { kind: 'held'; remainingMs: number }
  /** This attempt finished: its stored end may still need publishing (job/claim.ts). */
  | { kind: 'finished' }
  /** Deleted, or the job names an older attempt: nothing to run. */
  | { kind: 'gone' };

/** The reconciler's window: how long a lease (or, with a backlog, no lease) stays before its debate is due. */
export type StaleWindow = { staleAfterMs: number; unclaimedStaleAfterMs: number; batch: number };

/**
 * Who runs a debate: the statements that take a debate's lease (claim), mark it running, keep it (renew),
 * count an interruption under it, and give it back; and the reconciler's requeue stamps for debates nobody
 * holds. Every write that acts under a lease names the epoch this node claimed (`fence`), so a node that
 * stalled and lost the debate cannot write over the node that took it. The reconciler's transitions check
 * no epoch, so they are core's (debates/debate-record.ts), called here with the store's typed failures.
 */
export class LeaseStore extends Context.Service<
  LeaseStore,
  {
    claim: (job: DebateJob) => Effect.Effect<Claim, StoreFailure>;
    markRunning: (lease: Lease) => Effect.Effect<void, StoreFailure | LeaseLost>;
    renew: (leases: readonly Lease[]) => Effect.Effect<Set<string>, StoreFailure>;
    release: (lease: Lease) => Effect.Effect<void, StoreFailure>;
    countInterruption: (lease: Lease) => Effect.Effect<number | null, StoreFailure>;
    claimStale: (window: StaleWindow) => Effect.Effect<DebateJob[], StoreFailure>;
    unstamp: (debateIds: readonly string[]) => Effect.Effect<void, StoreFailure>;
    takeOverAll: () => Effect.Effect<DebateJob[], StoreFailure>;
    /** The nodes present now (their presence locks); null where there is no presence (embedded). */
    presentHolders: () => Effect.Effect<PresentHolders | null, StoreFailure>;
    /** Unfinished debates leased by nodes of `gone` (lock ids) still absent now. */
    orphansOf: (gone: readonly number[]) => Effect.Effect<Orphan[], StoreFailure>;
  }
>()('@verdict/engine/LeaseStore') {
  static readonly layer = Layer.effect(
    LeaseStore,
    Effect.gen(function* () {
      const { db } = yield* EngineStorage;
      const { nodeId, leaseMs } = yield* EngineSettings;
      const on = { db, k: () => query<StoreTables>(db.em()), nodeId, leaseSeconds: leaseMs / 1000 };
      // The debates a node starts together (a burst of jobs, a dead node's debates) are marked in one statement;
      // each then starts its actor, so they resume a turn of the event loop each.
      const marks = coalescedWrites<Lease>((leases) => markRunning(on, leases), {
        keyOf: (lease) => lease.debateId,
        maxInFlight: 2,
        maxPerStatement: 100,
        oneCallerATurn: true,
      });
      // Likewise the jobs a node takes together (the queue hands them over in batches).
      const claims = coalescedCalls<DebateJob, ClaimedRow>((jobs) => claimMany(on, jobs), {
        keyOf: (job) => job.debateId,
        maxInFlight: 2,
        maxPerStatement: 100,
        oneCallerATurn: true,
      });
      return LeaseStore.of({
        claim: (job) => tryStorage(() => claim(on, job, claims)).pipe(storeSpan('claim', job.debateId)),
        markRunning: (lease) =>
          Effect.flatMap(
            tryStorage(() => marks(lease)),
            (marked) => (marked ? Effect.void : Effect.fail(new LeaseLost({ debateId: lease.debateId }))),
          ).pipe(storeSpan('markRunning', lease.debateId)),
        renew: (leases) => tryStorage(() => renew(on, leases)),
        release: (lease) => tryStorage(() => release(on.k(), lease)),
        countInterruption: (lease) => tryStorage(() => countInterruption(on, lease)),
        claimStale: (window) => tryStorage(() => debateRequeue.stampStale(db.em(), window)),
        unstamp: (debateIds) => tryStorage(() => debateRequeue.unstamp(db.em(), debateIds)),
        takeOverAll: () => tryStorage(() => debateRequeue.takeOverAll(db.em(), nodeId)),
        presentHolders: () =>
          db.kind === 'postgres' ? tryStorage(() => presentHolders(on.k(), nodeId)) : Effect.succeed(null),
        orphansOf: (gone) => tryStorage(() => orphansOf(on.k(), gone)),
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

/** The columns a claimed debate runs on, as the claim returns them. */
const RUN_COLUMNS = sql.raw(
  [
    'id',
    'attempt',
    'status',
    'owner_id',
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
  ]
    .map((column) => `d.${column}`)
    .join(', '),
);

/**
 * The claim: the lease taken (when free, run out, this node's, or its holder gone) and what the debate runs
 * on returned, in one statement for the jobs a node takes together (`claimMany`). Without a row, one read
 * tells why. The debate is marked running by its own statement, once the node serves the debate's commands:
 * a command sent as soon as the debate reads running must find it served.
 */
async function claim(
  on: LeaseContext,
  job: DebateJob,
  claims: (job: DebateJob) => Promise<ClaimedRow | undefined>,
): Promise<Claim> {
  const row = await claims(job);
  if (row) {
    const { lease_epoch: epoch, taken_from: takenFrom, fresh, ...debate } = row;
    return { kind: 'claimed', lease: { ...job, epoch }, takenFrom, fresh, debate };
  }
  // Still unfinished means held, even if the lease ran out since the update above (each statement has its
  // own now()): answering 'gone' there would drop the dead holder's job.
  const seen = await on
    .k()
    .selectFrom('debates')
    .select([
      'attempt',
      'status',
      sql<number>`coalesce(greatest(0, extract(epoch from lease_expires_at - now()) * 1000), 0)::int`.as(
        'remaining_ms',
      ),
    ])
    .where('id', '=', job.debateId)
    .executeTakeFirst();
  if (!seen || seen.attempt !== job.attempt) return { kind: 'gone' };
  if (seen.status === 'completed' || seen.status === 'failed') return { kind: 'finished' };
  return { kind: 'held', remainingMs: seen.remaining_ms };
}

type ClaimedRow = DebateToRun & { lease_epoch: number; taken_from: HandOverReason | null; fresh: boolean };

/**
 * Many jobs' claims in one statement, their rows locked in id order; answers the claimed rows by debate. Each
 * row is locked and read in the subquery, so a claim that waited for another one re-reads the row that one
 * committed: `taken_from` and `fresh` describe the row as it is taken, never an older snapshot. `fresh`: no
 * node ever started this attempt (`markRunning` sets `started_at`, a retry clears it, and nothing of an
 * attempt is stored before), so there is nothing to restore.
 */
async function claimMany(on: LeaseContext, jobs: readonly DebateJob[]): Promise<Map<string, ClaimedRow>> {
  const wanted = JSON.stringify(jobs.map((job) => ({ id: job.debateId, attempt: job.attempt })));
  // `debates` unaliased in the subquery: the presence check names `debates.lease_owner`.
  const holderGone = on.db.kind === 'postgres' ? sql` or not ${holderPresent}` : sql``;
  const { rows } = await prepared(
    'claim',
    sql<ClaimedRow & { id: string }>`update debates d set lease_owner = ${on.nodeId},
      lease_epoch = d.lease_epoch + 1, lease_expires_at = ${expiry(on.leaseSeconds)}
    from (select debates.id, debates.started_at is null as fresh, case
            when debates.lease_owner is null or debates.lease_owner = ${on.nodeId} then null
            when debates.lease_expires_at is null or debates.lease_expires_at <= now() then 'lease_expired'
            else 'holder_gone' end as taken_from
          from debates join jsonb_to_recordset(${wanted}::jsonb) as j(id uuid, attempt int)
            on debates.id = j.id and debates.attempt = j.attempt
          where debates.status in ('pending', 'running', 'paused')
            and (debates.lease_expires_at is null or debates.lease_expires_at <= now()
                 or debates.lease_owner = ${on.nodeId}${holderGone})
          order by debates.id
          for no key update of debates) taken
    where d.id = taken.id
    returning d.lease_epoch, taken.taken_from, taken.fresh, ${RUN_COLUMNS}`,
  ).execute(on.k());
  return new Map(rows.map((row) => [row.id, row]));
}

/**
 * The debates read `running` (a paused one stays paused) under this node's leases, locked in id order; answers
 * the debates marked (one missing has lost its lease).
 */
async function markRunning(on: LeaseContext, leases: readonly Lease[]): Promise<Set<string>> {
  const marked = JSON.stringify(leases.map((l) => ({ id: l.debateId, attempt: l.attempt, epoch: l.epoch })));
  const { rows } = await prepared(
    'mark_running',
    sql<{ id: string }>`update debates d
        set status = case when d.status = 'pending' then 'running' else d.status end,
            started_at = coalesce(d.started_at, now())
      from (select l.id from debates l
              join jsonb_to_recordset(${marked}::jsonb) as m(id uuid, attempt int, epoch int)
                on l.id = m.id and l.attempt = m.attempt and l.lease_epoch = m.epoch
             where l.lease_owner = ${on.nodeId} and l.status in ('pending', 'running', 'paused')
             order by l.id
             for no key update of l) as marked
     where d.id = marked.id
     returning d.id`,
  ).execute(on.k());
  return new Set(rows.map((row) => row.id));
}

/** Every lease in one statement; answers the debates still held. */
async function renew(on: LeaseContext, leases: readonly Lease[]): Promise<Set<string>> {
  if (leases.length === 0) return new Set<string>();
  const held = JSON.stringify(leases.map((l) => ({ id: l.debateId, epoch: l.epoch })));
  // Locked in id order first, the order every transaction that locks several debates keeps: an unordered
  // update could hold one debate while waiting for another that a workspace's deletion holds.
  const rows = await prepared(
    'renew_leases',
    sql<{ id: string }>`update debates d set lease_expires_at = ${expiry(on.leaseSeconds)}
      from (select l.id from debates l
              join jsonb_to_recordset(${held}::jsonb) as h(id uuid, epoch int)
                on l.id = h.id and l.lease_epoch = h.epoch
             where l.lease_owner = ${on.nodeId} and l.status in ('pending', 'running', 'paused')
             order by l.id
             for update of l) as renewed
     where d.id = renewed.id
     returning d.id`,
  ).execute(on.k());
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
