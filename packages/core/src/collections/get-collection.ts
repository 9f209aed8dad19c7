import type { CollectionWithItems } from '@verdict/contracts';
import { assertReadable } from './collection-access.ts';
import { type CollectionResources, collectionQuery } from './collection-resources.ts';
import { COLLECTION_COLUMNS, readItems, toCollection } from './collection-views.ts';

/** A collection with its debates, for its owner or, when public, for anyone (`callerId` null: signed out). */
export const getCollection =
  ({ db }: CollectionResources) =>
  async (callerId: string | null, collectionId: string): Promise<CollectionWithItems> => {
    const row = assertReadable(
      await collectionQuery(db.em())
        .selectFrom('collections')
        .select(COLLECTION_COLUMNS)
        .where('id', '=', collectionId)
        .executeTakeFirst(),
      callerId,
    );
    const audience = row.user_id === callerId ? 'owner' : 'public';
    return { ...toCollection(row), items: await readItems(db.em(), collectionId, audience) };
  };
