import { notFound } from '../shared/app-error.ts';
import { lockOwnCollection } from './collection-access.ts';
import type { CollectionResources } from './collection-resources.ts';
import { itemQuery, renumber, touch } from './item-positions.ts';

/** Takes a debate out of the collection (the debate stays); the places after it close the gap. */
export const removeItem =
  ({ db, clock }: CollectionResources) =>
  (userId: string, collectionId: string, debateId: string): Promise<void> =>
    db.em().transactional(async (em) => {
      await lockOwnCollection(em, userId, collectionId);
      const removed = await itemQuery(em)
        .deleteFrom('collection_items')
        .where('collection_id', '=', collectionId)
        .where('debate_id', '=', debateId)
        .where((eb) =>
          eb.exists(
            eb.selectFrom('debates').select('id').where('id', '=', debateId).where('deleted_at', 'is', null),
          ),
        )
        .executeTakeFirst();
      if (removed.numDeletedRows === 0n) throw notFound('Debate in this collection');
      await renumber(em, collectionId);
      await touch(em, clock, collectionId);
    });
