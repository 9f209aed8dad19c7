import type { EntityManager } from '@mikro-orm/core';
import { query } from '../db/kysely.ts';
import { AppError, notFound } from '../shared/app-error.ts';
import { COLLECTION_COLUMNS, type CollectionRow } from './collection-views.ts';
import type { CollectionTables } from './tables.ts';

/**
 * Who may see a collection: its owner, and anyone (signed in or not) when it is public. A private
 * collection of someone else is FORBIDDEN, as the spec says; a missing one NOT_FOUND.
 */
export function assertReadable(row: CollectionRow | undefined, callerId: string | null): CollectionRow {
  if (!row) throw notFound('Collection');
  if (row.user_id !== callerId && !row.is_public) {
    throw new AppError('FORBIDDEN', 'This collection is private');
  }
  return row;
}

/**
 * The caller's collection, its row locked until `em`'s transaction ends: every change of a collection or of
 * its debates goes through here first, so changes of one collection run one after another (two appends
 * never take the same place). Someone else's collection is FORBIDDEN, public or not (the spec's 403 for
 * "not owner"); a missing one NOT_FOUND.
 */
export async function lockOwnCollection(
  em: EntityManager,
  userId: string,
  collectionId: string,
): Promise<CollectionRow> {
  const row = await query<CollectionTables>(em)
    .selectFrom('collections')
    .select(COLLECTION_COLUMNS)
    .where('id', '=', collectionId)
    .forUpdate()
    .executeTakeFirst();
  if (!row) throw notFound('Collection');
  if (row.user_id !== userId) throw new AppError('FORBIDDEN', 'This collection belongs to another user');
  return row;
}
