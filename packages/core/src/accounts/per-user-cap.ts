import type { EntityManager } from '@mikro-orm/core';
import { query } from '../db/kysely.ts';
import { AppError } from '../shared/app-error.ts';
import type { AccountTables } from './tables.ts';

/**
 * Refuses one more of something a user owns (collections, chains …) once they have `max`: 400 with a detail
 * saying what to delete. The user's row stays locked until the caller's transaction commits, so concurrent
 * creations are counted one after another and the cap is exact.
 */
export async function assertUnderUserCap(
  em: EntityManager,
  userId: string,
  cap: { max: number; noun: string; count: () => Promise<number> },
) {
  const owner = await query<AccountTables>(em)
    .selectFrom('users')
    .select('id')
    .where('id', '=', userId)
    .forNoKeyUpdate()
    .executeTakeFirst();
  if (!owner) throw new AppError('USER_NOT_FOUND', 'User not found');
  if ((await cap.count()) >= cap.max) {
    throw new AppError('VALIDATION_ERROR', `At most ${cap.max} ${cap.noun}s per user`, {
      details: [{ path: '', message: `Delete a ${cap.noun} to make room for another`, code: 'too_big' }],
    });
  }
}
