/**
 * The embedding worker's progress (embedding_queue): the only module that writes it. A completed debate is
 * queued in the transaction that completes it, claimed for a while by the worker, and deleted once the worker
 * is done with it. Nothing else depends on the queue, so nothing else waits for it or keeps rows for it.
 */
import type { EntityManager } from '@mikro-orm/core';
import { type RawBuilder, sql } from 'kysely';
import { query } from '../db/kysely.ts';
import type { Database } from '../db/orm.ts';
import type { DebateTables } from '../debates/tables.ts';
import type { Clock } from '../shared/clock.ts';
import type { SimilarTables } from './tables.ts';

type Tables = SimilarTables & DebateTables;

/**
 * Queues the embedding of a debate that just completed, in the transaction storing its verdict (the engine's
 * finish). A second call for the same debate changes nothing.
 */
export async function queueEmbedding(em: EntityManager, debateId: string): Promise<void> {
  await queueEmbeddingsFrom(sql`(select ${debateId}::uuid as debate_id)`).execute(query<Tables>(em));
}

/**
 * `queueEmbedding` for each row of `completed` (a relation with `debate_id`), as a data-modifying CTE of the
 * caller's statement (the engine's batched finish).
 */
export const queueEmbeddingsFrom = (completed: RawBuilder<unknown>) =>
  sql`insert into embedding_queue (debate_id) select debate_id from ${completed} as completed
      on conflict (debate_id) do nothing`;

/** A queued debate as the worker claims it, with what its embedding is made of. */
export type DueEmbedding = {
  debateId: string;
  attempts: number;
  debate: { ownerId: string; question: string; context: string | null; verdict: unknown } | null;
};

/**
 * Claims up to `batch` queued debates that are due, oldest first (`skip locked`: nodes claiming together take
 * different rows), in one short transaction: each claim is a `due_at` `claimMs` ahead, and `attempts` counts
 * the call about to be made, so no lock is held while the provider answers. A debate that is gone or deleted
 * is claimed with `debate: null` (nothing to embed; the caller finishes it).
 */
export async function claimDueEmbeddings(
  db: Database,
  now: number,
  batch: number,
  claimMs: number,
): Promise<DueEmbedding[]> {
  return db.em().transactional(async (em) => {
    const k = query<Tables>(em);
    const due = await k
      .selectFrom('embedding_queue as q')
      .leftJoin('debates as d', 'd.id', 'q.debate_id')
      .select(['q.debate_id', 'q.attempts', 'd.owner_id', 'd.question', 'd.context', 'd.verdict'])
      .select('d.deleted_at')
      .where((w) => w.or([w('q.due_at', 'is', null), w('q.due_at', '<=', new Date(now).toISOString())]))
      .orderBy('q.created_at')
      .limit(batch)
      .forUpdate('q')
      .skipLocked()
      .execute();
    if (due.length === 0) return [];
    await k
      .updateTable('embedding_queue')
      .set({ due_at: new Date(now + claimMs), attempts: sql<number>`attempts + 1` })
      .where(
        'debate_id',
        'in',
        due.map((row) => row.debate_id),
      )
      .execute();
    return due.map((row) => ({
      debateId: row.debate_id,
      attempts: row.attempts + 1,
      debate:
        row.owner_id && row.question && !row.deleted_at
          ? {
              ownerId: row.owner_id,
              question: row.question,
              context: row.context ?? null,
              verdict: row.verdict,
            }
          : null,
    }));
  });
}

/** The worker is done with these debates (embedded, given up on, or gone): they leave the queue. */
export async function finishEmbeddings(em: EntityManager, debateIds: string[]): Promise<void> {
  if (debateIds.length === 0) return;
  await query<Tables>(em).deleteFrom('embedding_queue').where('debate_id', 'in', debateIds).execute();
}

/** After a failed call: the debate is claimable again at `at`. */
export async function embeddingDueAgainAt(db: Database, debateId: string, at: number): Promise<void> {
  await query<Tables>(db.em())
    .updateTable('embedding_queue')
    .set({ due_at: new Date(at) })
    .where('debate_id', '=', debateId)
    .execute();
}

/**
 * How long queued debates wait where the deployment has no embedder: after that they are dropped, so a queue
 * nothing consumes stays bounded, and a key configured later embeds the debates of the last 30 days.
 */
export const EMBEDDING_BACKLOG_DAYS = 30;

/**
 * Where nothing embeds: drops up to `batch` queued debates older than `olderThanMs` (`skip locked`, so nodes
 * pruning together take different rows). Returns how many it dropped.
 */
export async function dropStaleEmbeddings(
  db: Database,
  clock: Clock,
  options: { olderThanMs: number; batch: number },
): Promise<number> {
  const k = query<Tables>(db.em());
  const result = await k
    .deleteFrom('embedding_queue')
    .where('debate_id', 'in', (eb) =>
      eb
        .selectFrom('embedding_queue')
        .select('debate_id')
        .where('created_at', '<', new Date(clock.now() - options.olderThanMs).toISOString())
        .limit(options.batch)
        .forUpdate()
        .skipLocked(),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
