import type { CollectionList } from '@verdict/contracts';
import { type CollectionResources, collectionQuery } from './collection-resources.ts';
import { COLLECTION_COLUMNS, toCollection } from './collection-views.ts';

/** The caller's collections, newest first, without their debates. */
export const listCollections =
  ({ db }: CollectionResources) =>
  async (userId: string): Promise<CollectionList> => {
    const rows = await collectionQuery(db.em())
      .selectFrom('collections')
      .select(COLLECTION_COLUMNS)
      .where('user_id', '=', userId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
    return { collections: rows.map(toCollection) };
  };
