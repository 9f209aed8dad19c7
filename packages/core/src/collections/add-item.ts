import { COLLECTION_ITEMS_MAX, type CollectionItem } from '@verdict/contracts';
import { sql } from 'kysely';
import { AppError, notFound } from '../shared/app-error.ts';
import { lockOwnCollection } from './collection-access.ts';
import type { CollectionResources } from './collection-resources.ts';
import { itemQuery, touch } from './item-positions.ts';

/**
 * Appends one of the caller's own debates. Another user's debate, or a missing or soft-deleted one, is
 * NOT_FOUND (as for every read of a debate); one already in the collection is a CONFLICT.
 */
export const addItem =
  ({ db, clock }: CollectionResources) =>
  (userId: string, collectionId: string, debateId: string): Promise<CollectionItem> =>
    db.em().transactional(async (em) => {
      // The debate's row before the collection's, as a permanent deletion locks them (dropDebates). A
      // key-share lock: a permanent deletion of the debate waits for this insert instead of failing it.
      const debate = await itemQuery(em)
        .selectFrom('debates')
        .select(['id', 'question', 'status', 'mode', 'created_at'])
        .where('id', '=', debateId)
        .where('owner_id', '=', userId)
        .where('deleted_at', 'is', null)
        .forKeyShare()
        .executeTakeFirst();
      await lockOwnCollection(em, userId, collectionId);
      if (!debate) throw notFound('Debate');
      const taken = await itemQuery(em)
        .selectFrom('collection_items')
        .select('debate_id')
        .where('collection_id', '=', collectionId)
        .where('debate_id', '=', debateId)
        .executeTakeFirst();
      if (taken) throw new AppError('CONFLICT', 'This debate is already in the collection');
      const { visible, next } = await itemQuery(em)
        .selectFrom('collection_items as ci')
        .innerJoin('debates as d', 'd.id', 'ci.debate_id')
        .select([
          sql<number>`(count(*) filter (where d.deleted_at is null))::int`.as('visible'),
          sql<number>`coalesce(max(ci.position) + 1, 0)::int`.as('next'),
        ])
        .where('ci.collection_id', '=', collectionId)
        .executeTakeFirstOrThrow();
      if (visible >= COLLECTION_ITEMS_MAX) {
        throw new AppError('VALIDATION_ERROR', `A collection holds at most ${COLLECTION_ITEMS_MAX} debates`, {
          details: [{ path: 'debateId', message: 'The collection is full', code: 'too_big' }],
        });
      }
      const addedAt = new Date(clock.now());
      await itemQuery(em)
        .insertInto('collection_items')
        .values({ collection_id: collectionId, debate_id: debateId, position: next, added_at: addedAt })
        .execute();
      await touch(em, clock, collectionId);
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
    });
