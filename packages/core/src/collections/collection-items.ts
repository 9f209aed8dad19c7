import type { EntityManager } from '@mikro-orm/core';
import {
  COLLECTION_ITEMS_MAX,
  type CollectionItem,
  type CollectionWithItems,
  type ReorderCollectionInput,
  type ValidationIssue,
} from '@verdict/contracts';
import { sql } from 'kysely';
import { query } from '../db/kysely.ts';
import type { Database } from '../db/orm.ts';
import type { DebateTables } from '../debates/tables.ts';
import { AppError, notFound } from '../shared/app-error.ts';
import type { Clock } from '../shared/clock.ts';
import { lockOwnCollection } from './collection-access.ts';
import { readItems, toCollection } from './collection-views.ts';
import type { CollectionTables } from './tables.ts';

type Tables = CollectionTables & DebateTables;

/**
 * The debates of the caller's collections: add (at the end), remove, reorder, and drop the debates deleted
 * for good. Each runs in one transaction that locks the collection's row (after the debate's, when it locks
 * one), so positions stay dense (0 to n-1) and unique under concurrent calls. A soft-deleted debate is absent here as in reads: it cannot be added, removed or placed.
 */
export function createCollectionItems(db: Database, clock: Clock) {
  const k = (em: EntityManager) => query<Tables>(em);

  /** Marks the collection changed now; returns when. */
  const touch = async (em: EntityManager, collectionId: string) => {
    const at = new Date(clock.now());
    await k(em).updateTable('collections').set({ updated_at: at }).where('id', '=', collectionId).execute();
    return at.toISOString();
  };

  /** The ids of the debates the owner sees in the collection (those not soft-deleted). */
  const visibleDebateIds = async (em: EntityManager, collectionId: string) =>
    (
      await k(em)
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
  const renumber = async (
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
        and ci."position" <> ranked."position"`.execute(k(em));
  };

  return {
    /**
     * Appends one of the caller's own debates. Another user's debate, or a missing or soft-deleted one,
     * is NOT_FOUND (as for every read of a debate); one already in the collection is a CONFLICT.
     */
    addItem: (userId: string, collectionId: string, debateId: string): Promise<CollectionItem> =>
      db.em().transactional(async (em) => {
        // The debate's row before the collection's, as a permanent deletion locks them (dropDebates). A
        // key-share lock: a permanent deletion of the debate waits for this insert instead of failing it.
        const debate = await k(em)
          .selectFrom('debates')
          .select(['id', 'question', 'status', 'mode', 'created_at'])
          .where('id', '=', debateId)
          .where('owner_id', '=', userId)
          .where('deleted_at', 'is', null)
          .forKeyShare()
          .executeTakeFirst();
        await lockOwnCollection(em, userId, collectionId);
        if (!debate) throw notFound('Debate');
        const taken = await k(em)
          .selectFrom('collection_items')
          .select('debate_id')
          .where('collection_id', '=', collectionId)
          .where('debate_id', '=', debateId)
          .executeTakeFirst();
        if (taken) throw new AppError('CONFLICT', 'This debate is already in the collection');
        const { visible, next } = await k(em)
          .selectFrom('collection_items as ci')
          .innerJoin('debates as d', 'd.id', 'ci.debate_id')
          .select([
            sql<number>`(count(*) filter (where d.deleted_at is null))::int`.as('visible'),
            sql<number>`coalesce(max(ci.position) + 1, 0)::int`.as('next'),
          ])
          .where('ci.collection_id', '=', collectionId)
          .executeTakeFirstOrThrow();
        if (visible >= COLLECTION_ITEMS_MAX) {
          throw new AppError(
            'VALIDATION_ERROR',
            `A collection holds at most ${COLLECTION_ITEMS_MAX} debates`,
            {
              details: [{ path: 'debateId', message: 'The collection is full', code: 'too_big' }],
            },
          );
        }
        const addedAt = new Date(clock.now());
        await k(em)
          .insertInto('collection_items')
          .values({ collection_id: collectionId, debate_id: debateId, position: next, added_at: addedAt })
          .execute();
        await touch(em, collectionId);
        return {
          debateId,
          order: visible,
          addedAt: addedAt.toISOString(),
          debate: {
            id: debate.id,
            question: debate.question,
            status: debate.status,
            mode: debate.mode ?? null,
            createdAt: new Date(debate.created_at).toISOString(),
          },
        };
      }),

    /**
     * Takes debates being deleted for good out of every collection that holds them, closing the gaps, in
     * the deleting transaction (`em`), which must already hold the debates' rows locked FOR UPDATE: no
     * append of them can then start (an append key-shares the debate before it locks the collection), and
     * the collections are locked after the debates, in id order, as appends lock them. The cascade of the
     * debates' deletion then finds nothing left to remove.
     */
    dropDebates: async (em: EntityManager, debateIds: string[]): Promise<void> => {
      if (debateIds.length === 0) return;
      const holding = await k(em)
        .selectFrom('collections')
        .select('id')
        .where('id', 'in', (eb) =>
          eb.selectFrom('collection_items').select('collection_id').where('debate_id', 'in', debateIds),
        )
        .orderBy('id')
        .forUpdate()
        .execute();
      if (holding.length === 0) return;
      await k(em).deleteFrom('collection_items').where('debate_id', 'in', debateIds).execute();
      for (const { id } of holding) {
        await renumber(em, id);
        await touch(em, id);
      }
    },

    /** Takes a debate out of the collection (the debate stays); the places after it close the gap. */
    removeItem: (userId: string, collectionId: string, debateId: string): Promise<void> =>
      db.em().transactional(async (em) => {
        await lockOwnCollection(em, userId, collectionId);
        const removed = await k(em)
          .deleteFrom('collection_items')
          .where('collection_id', '=', collectionId)
          .where('debate_id', '=', debateId)
          .where((eb) =>
            eb.exists(
              eb
                .selectFrom('debates')
                .select('id')
                .where('id', '=', debateId)
                .where('deleted_at', 'is', null),
            ),
          )
          .executeTakeFirst();
        if (removed.numDeletedRows === 0n) throw notFound('Debate in this collection');
        await renumber(em, collectionId);
        await touch(em, collectionId);
      }),

    /**
     * The whole new order: every debate of the collection exactly once, with the orders 0 to n-1 each used
     * once (what is sent is what is read back). Anything else, a partial reorder included, is a
     * VALIDATION_ERROR naming each problem.
     */
    reorderItems: (
      userId: string,
      collectionId: string,
      items: ReorderCollectionInput['items'],
    ): Promise<CollectionWithItems> =>
      db.em().transactional(async (em) => {
        const row = await lockOwnCollection(em, userId, collectionId);
        const present = await visibleDebateIds(em, collectionId);
        const problems = reorderProblems(present, items);
        if (problems.length) {
          const headline = present.length
            ? `Name every debate of the collection once, with orders 0 to ${present.length - 1}`
            : 'The collection has no debates to reorder';
          throw new AppError('VALIDATION_ERROR', headline, { details: problems });
        }
        await renumber(em, collectionId, items);
        const updatedAt = await touch(em, collectionId);
        return {
          ...toCollection({ ...row, updated_at: updatedAt }),
          items: await readItems(em, collectionId, 'owner'),
        };
      }),
  };
}

/** An error lists at most 100 details (contracts' ERROR_EXTRAS); the first few say what is wrong. */
const REPORTED_PROBLEMS_MAX = 20;

/**
 * Why `items` is not a complete order of the debates `present` (duplicates are refused by the input
 * schema already): a debate it names that is not in the collection, one of the collection it leaves out,
 * an order past the last place. The first REPORTED_PROBLEMS_MAX of them.
 */
export function reorderProblems(
  present: string[],
  items: ReorderCollectionInput['items'],
): ValidationIssue[] {
  const inCollection = new Set(present);
  const named = new Set(items.map((item) => item.debateId));
  const problems: ValidationIssue[] = [];
  items.forEach((item, index) => {
    if (!inCollection.has(item.debateId)) {
      problems.push({
        path: `items.${index}.debateId`,
        message: 'This debate is not in the collection',
        code: 'not_in_collection',
      });
    }
    if (present.length > 0 && item.order >= present.length) {
      problems.push({
        path: `items.${index}.order`,
        message: `Orders run from 0 to ${present.length - 1}, one per debate of the collection`,
        code: 'too_big',
      });
    }
  });
  for (const debateId of present) {
    if (!named.has(debateId)) {
      problems.push({
        path: 'items',
        message: `Debate ${debateId} of the collection is missing: partial reorders are not supported`,
        code: 'missing_item',
      });
    }
  }
  return problems.slice(0, REPORTED_PROBLEMS_MAX);
}
