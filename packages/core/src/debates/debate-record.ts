import type { EntityManager } from '@mikro-orm/core';
import type { FundingSource } from '@verdict/contracts';
import { sql } from 'kysely';
import { query } from '../db/kysely.ts';
import type { DebateTables } from './tables.ts';
import { forgetTranscript } from './transcripts/compact-ended-debates.ts';

/**
 * The one writer of a debate's record — the `debates` row, and the events, turns and snapshot of its attempt —
 * outside a running attempt. Each change is a named transition that runs in the caller's transaction (`em`),
 * so the caller's checks and locks and the write commit together; no feature writes these tables itself.
 *
 * The engine's store (packages/engine/src/store/: lease-store.ts, attempt-log.ts, attempt-outcome.ts) writes
 * the running attempt: the lease, the turns, events and snapshot, the status they set and the final state.
 * Those statements check the lease epoch the node claimed in the same statement, which is why they stay
 * there rather than here. A new debate's row is written by the database function `open_debate` (migration
 * 0037, called by creation/open-debate.ts) together with its charge and its `debate.created` webhook: one
 * round trip for the whole create.
 */

const k = (em: EntityManager) => query<DebateTables>(em);

/**
 * A failed debate back to pending as its next attempt: the previous attempt's events (and their transcript),
 * turns, calls and snapshot cleared, its result, failure and lease forgotten. Returns the new attempt's number.
 */
export async function resetForRetry(
  em: EntityManager,
  debateId: string,
  fundingSource: FundingSource,
): Promise<number> {
  const db = k(em);
  await db.deleteFrom('debate_events').where('debate_id', '=', debateId).execute();
  await db.deleteFrom('debate_turns').where('debate_id', '=', debateId).execute();
  await db.deleteFrom('debate_calls').where('debate_id', '=', debateId).execute();
  await db.deleteFrom('debate_snapshots').where('debate_id', '=', debateId).execute();
  // After the events: a partition's drop, which locks the events first, then finds the transcript or the retry.
  await forgetTranscript(em, debateId);
  const updated = await db
    .updateTable('debates')
    .set({
      status: 'pending',
      funding_source: fundingSource,
      attempt: sql<number>`attempt + 1`,
      verdict: null,
      cost: null,
      agent_count: null,
      round_count: null,
      agents_used: null,
      failure_code: null,
      failure_message: null,
      started_at: null,
      completed_at: null,
      lease_owner: null,
      lease_expires_at: null,
      requeued_at: null,
      interruptions: 0,
    })
    .where('id', '=', debateId)
    .returning('attempt')
    .executeTakeFirstOrThrow();
  return updated.attempt;
}

/** Hidden from lists and reads; the row stays (a permanent delete removes it). */
/** Whether this call deleted it: false when it was already deleted (a concurrent delete came first). */
export async function softDeleteDebate(em: EntityManager, debateId: string, at: Date): Promise<boolean> {
  const result = await k(em)
    .updateTable('debates')
    .set({ deleted_at: at })
    .where('id', '=', debateId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Into a workspace, or back to its creator's own account (null). */
export async function moveDebateToWorkspace(
  em: EntityManager,
  debateId: string,
  workspaceId: string | null,
): Promise<void> {
  await k(em).updateTable('debates').set({ workspace_id: workspaceId }).where('id', '=', debateId).execute();
}

/** Public (anyone may read it) or private. */
export async function setDebatePublic(em: EntityManager, debateId: string, isPublic: boolean): Promise<void> {
  await k(em).updateTable('debates').set({ is_public: isPublic }).where('id', '=', debateId).execute();
}

/** Adds counted views to several debates in one statement. */
export async function addDebateViews(
  em: EntityManager,
  views: readonly { debateId: string; n: number }[],
): Promise<void> {
  if (views.length === 0) return;
  const increments = views.map(({ debateId, n }) => sql`when ${debateId}::uuid then ${n}::int`);
  await k(em)
    .updateTable('debates')
    .set({ view_count: sql<number>`view_count + case id ${sql.join(increments, sql` `)} end` })
    .where(
      'id',
      'in',
      views.map(({ debateId }) => debateId),
    )
    .execute();
}

/**
 * The owner's debate gone for good (its events, turns and snapshot cascade), leaving a tombstone so that
 * deleting it again answers as a success to its owner; someone else's debate is left alone, and leaves no
 * tombstone. The caller locks the row first when something else it writes depends on it.
 */
export async function removeDebatePermanently(
  em: EntityManager,
  debate: { id: string; ownerId: string },
): Promise<void> {
  const removed = await k(em)
    .deleteFrom('debates')
    .where('id', '=', debate.id)
    .where('owner_id', '=', debate.ownerId)
    .returning('id')
    .executeTakeFirst();
  if (!removed) return;
  await k(em)
    .insertInto('deleted_debates')
    .values({ id: debate.id, owner_id: debate.ownerId })
    .onConflict((c) => c.doNothing())
    .execute();
}

/**
 * The reconciler's transitions, for debates no node holds: they read and set `requeued_at` (when a debate
 * was last queued again) and free a lease, but never check an epoch — a node holding the debate finds its
 * fence intact, as the epoch moves only when a node claims it.
 */
export const requeue = {
  /** Marks up to `batch` unfinished debates whose lease ran out (or was never taken) as queued again now. */
  stampStale: async (
    em: EntityManager,
    window: { staleAfterMs: number; unclaimedStaleAfterMs: number; batch: number },
  ): Promise<{ debateId: string; attempt: number }[]> => {
    const rows = await sql<{ id: string; attempt: number }>`update debates set requeued_at = now()
       where id in (
         select id from debates
          where status in ('pending', 'running', 'paused')
            and (requeued_at is null or requeued_at < now() - make_interval(secs => ${window.staleAfterMs / 1000}))
            and (
              (lease_expires_at is null
                and coalesce(started_at, created_at) < now() - make_interval(secs => ${window.unclaimedStaleAfterMs / 1000}))
              or lease_expires_at < now() - make_interval(secs => ${window.staleAfterMs / 1000})
            )
          order by created_at limit ${window.batch}
          for update skip locked)
       returning id, attempt`.execute(k(em));
    return rows.rows.map((row) => ({ debateId: row.id, attempt: row.attempt }));
  },

  /** Forgets the stamps of debates whose job could not be queued, so the next sweep tries them again. */
  unstamp: async (em: EntityManager, debateIds: readonly string[]): Promise<void> => {
    if (debateIds.length === 0) return;
    await k(em)
      .updateTable('debates')
      .set({ requeued_at: null })
      .where('id', 'in', [...debateIds])
      .execute();
  },

  /** Every unfinished debate not held by `nodeId`, its lease freed and stamped as queued again now. */
  takeOverAll: async (
    em: EntityManager,
    nodeId: string,
  ): Promise<{ debateId: string; attempt: number }[]> => {
    const rows = await k(em)
      .updateTable('debates')
      .set({ requeued_at: sql<Date>`now()`, lease_owner: null, lease_expires_at: null })
      .where('status', 'in', ['pending', 'running', 'paused'])
      .where(sql<boolean>`lease_owner is distinct from ${nodeId}`)
      .returning(['id', 'attempt'])
      .execute();
    return rows.map((row) => ({ debateId: row.id, attempt: row.attempt }));
  },
};
