import type { EntityManager } from '@mikro-orm/core';
import { sql } from 'kysely';
import { query } from '../db/kysely.ts';
import { AppError } from '../shared/app-error.ts';
import type { AccountTables } from './tables.ts';

/** Tables whose rows a user owns by their `user_id`, and are capped per user: the cap counts them itself. */
type OwnedTable = 'collections' | 'decision_chains' | 'scheduled_debates' | 'webhooks';

/** A cap: its size, what it counts in words, and how: the user's rows of a table, or a count of its own. */
export type UserCap = { max: number; noun: string } & (
  | { table: OwnedTable }
  | { count: () => Promise<number> }
);

/**
 * Refuses one more of something a user owns (collections, chains …) once they have `max`: 400 with a detail
 * saying what to delete. The user's row stays locked until the caller's transaction commits, so concurrent
 * creations are counted one after another and the cap is exact.
 */
export async function assertUnderUserCap(em: EntityManager, userId: string, cap: UserCap) {
  const owner = await query<AccountTables>(em)
    .selectFrom('users')
    .select('id')
    .where('id', '=', userId)
    .forNoKeyUpdate()
    .executeTakeFirst();
  if (!owner) throw new AppError('USER_NOT_FOUND', 'User not found');
  const count = 'table' in cap ? await rowsOwned(em, cap.table, userId) : await cap.count();
  if (count >= cap.max) {
    throw new AppError('VALIDATION_ERROR', `At most ${cap.max} ${cap.noun}s per user`, {
      details: [{ path: '', message: `Delete a ${cap.noun} to make room for another`, code: 'too_big' }],
    });
  }
}

/** The user's rows of `table`: a count on its `user_id`. */
async function rowsOwned(em: EntityManager, table: OwnedTable, userId: string): Promise<number> {
  const { rows } = await sql<{ n: number }>`
    select count(*)::int as n from ${sql.table(table)} where user_id = ${userId}`.execute(query(em));
  return rows[0]?.n ?? 0;
}
