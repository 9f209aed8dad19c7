import type { EntityManager } from '@mikro-orm/core';
import type { Collection, CollectionItem } from '@verdict/contracts';
import { query } from '../db/kysely.ts';
import { DEBATE_SUMMARY_COLUMNS, toDebateSummary } from '../debates/debate-summary.ts';
import type { DebateTables } from '../debates/tables.ts';
import type { CollectionTables } from './tables.ts';

type Tables = CollectionTables & DebateTables;

export type CollectionRow = {
  id: string;
  user_id: string;
  name: string;
  description: string | null;
  is_public: boolean;
  created_at: string;
  updated_at: string;
};

export const COLLECTION_COLUMNS = [
  'id',
  'user_id',
  'name',
  'description',
  'is_public',
  'created_at',
  'updated_at',
] as const;

export const toCollection = (row: CollectionRow): Collection => ({
  id: row.id,
  name: row.name,
  description: row.description ?? null,
  isPublic: row.is_public,
  userId: row.user_id,
  createdAt: new Date(row.created_at).toISOString(),
  updatedAt: new Date(row.updated_at).toISOString(),
});

/**
 * Who reads a collection's debates: its owner sees every debate still there; anyone else only the public
 * ones, so making a collection public never shows a debate its owner kept private.
 */
export type ItemAudience = 'owner' | 'public';

/**
 * The debates of a collection as `audience` sees them, in order. Soft-deleted debates are left out (their
 * memberships stay, hidden, and go for good with the debate); `order` is the place among the debates
 * shown, so it has no gaps whoever reads.
 */
export async function readItems(
  em: EntityManager,
  collectionId: string,
  audience: ItemAudience,
): Promise<CollectionItem[]> {
  let select = query<Tables>(em)
    .selectFrom('collection_items as ci')
    .innerJoin('debates as d', 'd.id', 'ci.debate_id')
    .select(['ci.debate_id', 'ci.added_at', ...DEBATE_SUMMARY_COLUMNS])
    .where('ci.collection_id', '=', collectionId)
    .where('d.deleted_at', 'is', null)
    .orderBy('ci.position');
  if (audience === 'public') select = select.where('d.is_public', '=', true);
  const rows = await select.execute();
  return rows.map((row, order) => ({
    debateId: row.debate_id,
    order,
    addedAt: new Date(row.added_at).toISOString(),
    debate: toDebateSummary(row),
  }));
}
