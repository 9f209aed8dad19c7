import type { EntityManager } from '@mikro-orm/core';
import type { ReorderCollectionInput } from '@verdict/contracts';
import { sql } from 'kysely';
import { query } from '../db/kysely.ts';
import type { DebateTables } from '../debates/tables.ts';
import type { Clock } from '../shared/clock.ts';
import type { CollectionTables } from './tables.ts';

/**
 * What the item operations share: typed queries over collections and the debates they hold, and the
 * positions kept dense. Each item operation runs in one transaction that locks the collection's row (after
 * the debate's, when it locks one), so positions stay 0 to n-1 and unique under concurrent calls. A
 * soft-deleted debate is absent here as in reads: it cannot be added, removed or placed.
 */
export const itemQuery = (em: EntityManager) => query<CollectionTables & DebateTables>(em);

/** Marks the collection changed now; returns when. */
export const touch = async (em: EntityManager, clock: Clock, collectionId: string) => {
  const at = new Date(clock.now());
  await itemQuery(em)
    .updateTable('collections')
    .set({ updated_at: at })
    .where('id', '=', collectionId)
    .execute();
  return at.toISOString();
};

/** The ids of the debates the owner sees in the collection (those not soft-deleted). */
export const visibleDebateIds = async (em: EntityManager, collectionId: string) =>
  (
    await itemQuery(em)
      .selectFrom('collection_items as ci')
      .innerJoin('debates as d', 'd.id', 'ci.debate_id')
      .select('ci.debate_id')
      .where('ci.collection_id', '=', collectionId)
      .where('d.deleted_at', 'is', null)
      .execute()
  ).map((row) => row.debate_id);

/**
 * Positions 0 to n-1 again, in the order `wanted` gives the debates it names (all the visible ones), the
 * others (hidden) after them in their previous order; without `wanted`, in the current order. One
 * statement: the deferrable unique (collection, position) is checked at its end, not row by row.
 */
export const renumber = async (
  em: EntityManager,
  collectionId: string,
  wanted: ReorderCollectionInput['items'] = [],
) => {
  const places = wanted.length
    ? sql`(values ${sql.join(wanted.map((item) => sql`(${item.debateId}::uuid, ${item.order}::int)`))})`
    : sql`(select null::uuid, null::int where false)`;
  await sql`
    update "collection_items" as ci set "position" = ranked."position"
    from (
      select i."debate_id",
        (row_number() over (order by w."wanted" asc nulls last, i."position" asc) - 1)::int as "position"
      from "collection_items" as i
      left join ${places} as w("debate_id", "wanted") on w."debate_id" = i."debate_id"
      where i."collection_id" = ${collectionId}
    ) as ranked
    where ci."collection_id" = ${collectionId} and ci."debate_id" = ranked."debate_id"
      and ci."position" <> ranked."position"`.execute(itemQuery(em));
};
