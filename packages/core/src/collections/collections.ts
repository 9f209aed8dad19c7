import type { EntityManager } from '@mikro-orm/core';
import {
  COLLECTIONS_PER_USER_MAX,
  type Collection,
  type CollectionList,
  type CollectionWithItems,
  type CreateCollectionInput,
  type UpdateCollectionInput,
} from '@verdict/contracts';
import { sql } from 'kysely';
import { assertUnderUserCap } from '../accounts/per-user-cap.ts';
import { query } from '../db/kysely.ts';
import type { Database } from '../db/orm.ts';
import type { Clock } from '../shared/clock.ts';
import { assertReadable, lockOwnCollection } from './collection-access.ts';
import { createCollectionItems } from './collection-items.ts';
import { COLLECTION_COLUMNS, readItems, toCollection } from './collection-views.ts';
import type { CollectionTables } from './tables.ts';

type Tables = CollectionTables;

/**
 * Collections: named lists of a user's own debates, private unless made public. Only the owner changes a
 * collection or its debates (anyone else: FORBIDDEN, a missing one: NOT_FOUND); deleting one removes the
 * memberships, never the debates.
 */
export function createCollections(db: Database, clock: Clock) {
  const k = (em: EntityManager = db.em()) => query<Tables>(em);

  const assertRoomForAnother = (em: EntityManager, userId: string) =>
    assertUnderUserCap(em, userId, {
      max: COLLECTIONS_PER_USER_MAX,
      noun: 'collection',
      count: async () =>
        (
          await k(em)
            .selectFrom('collections')
            .select(sql<number>`count(*)::int`.as('n'))
            .where('user_id', '=', userId)
            .executeTakeFirstOrThrow()
        ).n,
    });

  return {
    create: (userId: string, input: CreateCollectionInput): Promise<Collection> =>
      db.em().transactional(async (em) => {
        await assertRoomForAnother(em, userId);
        const at = new Date(clock.now());
        const row = await k(em)
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
      }),

    /** The caller's collections, newest first, without their debates. */
    list: async (userId: string): Promise<CollectionList> => {
      const rows = await k()
        .selectFrom('collections')
        .select(COLLECTION_COLUMNS)
        .where('user_id', '=', userId)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .execute();
      return { collections: rows.map(toCollection) };
    },

    /** A collection with its debates, for its owner or, when public, for anyone (`callerId` null: signed out). */
    get: async (callerId: string | null, collectionId: string): Promise<CollectionWithItems> => {
      const row = assertReadable(
        await k()
          .selectFrom('collections')
          .select(COLLECTION_COLUMNS)
          .where('id', '=', collectionId)
          .executeTakeFirst(),
        callerId,
      );
      const audience = row.user_id === callerId ? 'owner' : 'public';
      return { ...toCollection(row), items: await readItems(db.em(), collectionId, audience) };
    },

    /** Changes the fields given; the others keep their values. Nothing given changes nothing. */
    update: (
      userId: string,
      collectionId: string,
      input: Omit<UpdateCollectionInput, 'id'>,
    ): Promise<Collection> =>
      db.em().transactional(async (em) => {
        const row = await lockOwnCollection(em, userId, collectionId);
        const changes = {
          ...(input.name !== undefined ? { name: input.name } : {}),
          ...(input.description !== undefined ? { description: input.description } : {}),
          ...(input.isPublic !== undefined ? { is_public: input.isPublic } : {}),
        };
        if (Object.keys(changes).length === 0) return toCollection(row);
        const updated = await k(em)
          .updateTable('collections')
          .set({ ...changes, updated_at: new Date(clock.now()) })
          .where('id', '=', collectionId)
          .returning(COLLECTION_COLUMNS)
          .executeTakeFirstOrThrow();
        return toCollection(updated);
      }),

    /** Deletes the collection and its memberships (the foreign key cascades); the debates stay. */
    remove: (userId: string, collectionId: string): Promise<void> =>
      db.em().transactional(async (em) => {
        await lockOwnCollection(em, userId, collectionId);
        await k(em).deleteFrom('collections').where('id', '=', collectionId).execute();
      }),

    ...createCollectionItems(db, clock),
  };
}

export type Collections = ReturnType<typeof createCollections>;
