/**
 * The score worker's progress (score_queue): the only module that writes it. A change to a user's outcomes
 * queues a refresh of their score in the change's own transaction; the worker takes queued refreshes and
 * deletes them in the transaction that stores the refreshed score. Nothing else depends on the queue.
 */
import type { EntityManager } from '@mikro-orm/core';
import { type RawBuilder, sql } from 'kysely';
import { query } from '../db/kysely.ts';
import type { OutcomeTables } from './tables.ts';

/** Queues a refresh of `userId`'s score, in the transaction that changes their outcomes. */
export async function queueScoreRefresh(em: EntityManager, userId: string): Promise<void> {
  await query<OutcomeTables>(em).insertInto('score_queue').values({ user_id: userId }).execute();
}

/**
 * `queueScoreRefresh` for each row of `owners` (a relation with `owner_id`), as a data-modifying CTE of the
 * caller's statement: what `openPendingOutcomesFrom` opened.
 */
export const queueScoreRefreshesFrom = (owners: RawBuilder<unknown>) =>
  sql`insert into score_queue (user_id) select owner_id from ${owners} as owners`;

/**
 * Takes up to `batch` queued refreshes, oldest first, locked for the caller's transaction (`skip locked`, so
 * nodes passing at once take different ones), and deletes them in it: a rollback puts them back. Returns the
 * users they name, one entry per refresh taken.
 */
export async function takeScoreRefreshes(em: EntityManager, batch: number): Promise<string[]> {
  const k = query<OutcomeTables>(em);
  const due = await k
    .selectFrom('score_queue')
    .select(['id', 'user_id'])
    .orderBy('created_at')
    .limit(batch)
    .forUpdate()
    .skipLocked()
    .execute();
  if (due.length === 0) return [];
  await k
    .deleteFrom('score_queue')
    .where(
      'id',
      'in',
      due.map((row) => row.id),
    )
    .execute();
  return due.map((row) => row.user_id);
}
