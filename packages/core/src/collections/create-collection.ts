import { COLLECTIONS_PER_USER_MAX, type Collection, type CreateCollectionInput } from '@verdict/contracts';
import { assertUnderUserCap } from '../accounts/per-user-cap.ts';
import { type CollectionResources, collectionQuery } from './collection-resources.ts';
import { COLLECTION_COLUMNS, toCollection } from './collection-views.ts';

/** A new collection of the caller's, within the per-user cap. */
export const createCollection =
  ({ db, clock }: CollectionResources) =>
  (userId: string, input: CreateCollectionInput): Promise<Collection> =>
    db.em().transactional(async (em) => {
      await assertUnderUserCap(em, userId, {
        max: COLLECTIONS_PER_USER_MAX,
        noun: 'collection',
        table: 'collections',
      });
      const at = new Date(clock.now());
      const row = await collectionQuery(em)
        .insertInto('collections')
        .values({
          user_id: userId,
          name: input.name,
          description: input.description ?? null,
          is_public: input.isPublic,
          created_at: at,
          updated_at: at,
        })
        .returning(COLLECTION_COLUMNS)
        .executeTakeFirstOrThrow();
      return toCollection(row);
    });
