import type { Collection, UpdateCollectionInput } from '@verdict/contracts';
import { lockOwnCollection } from './collection-access.ts';
import { type CollectionResources, collectionQuery } from './collection-resources.ts';
import { COLLECTION_COLUMNS, toCollection } from './collection-views.ts';

/** Changes the fields given; the others keep their values. Nothing given changes nothing. */
export const updateCollection =
  ({ db, clock }: CollectionResources) =>
  (userId: string, collectionId: string, input: Omit<UpdateCollectionInput, 'id'>): Promise<Collection> =>
    db.em().transactional(async (em) => {
      const row = await lockOwnCollection(em, userId, collectionId);
      const changes = {
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.description !== undefined ? { description: input.description } : {}),
        ...(input.isPublic !== undefined ? { is_public: input.isPublic } : {}),
      };
      if (Object.keys(changes).length === 0) return toCollection(row);
      const updated = await collectionQuery(em)
        .updateTable('collections')
        .set({ ...changes, updated_at: new Date(clock.now()) })
        .where('id', '=', collectionId)
        .returning(COLLECTION_COLUMNS)
        .executeTakeFirstOrThrow();
      return toCollection(updated);
    });
