import { lockOwnCollection } from './collection-access.ts';
import { type CollectionResources, collectionQuery } from './collection-resources.ts';

/** Deletes the collection and its memberships (the foreign key cascades); the debates stay. */
export const removeCollection =
  ({ db }: CollectionResources) =>
  (userId: string, collectionId: string): Promise<void> =>
    db.em().transactional(async (em) => {
      await lockOwnCollection(em, userId, collectionId);
      await collectionQuery(em).deleteFrom('collections').where('id', '=', collectionId).execute();
    });
