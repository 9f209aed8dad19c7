import { defineEntity, p } from '@mikro-orm/core';
import { User } from '../accounts/user.entity.ts';

/** A user's named list of their own debates; readable by anyone when public. Its debates: collection_items. */
export const CollectionSchema = defineEntity({
  name: 'Collection',
  tableName: 'collections',
  indexes: [{ name: 'collections_user_created_index', properties: ['user', 'createdAt'] }],
  properties: {
    id: p.uuid().primary().defaultRaw('gen_random_uuid()'),
    user: () => p.manyToOne(User).deleteRule('cascade'),
    name: p.string().length(100),
    description: p.string().length(500).nullable(),
    isPublic: p.boolean().default(false),
    createdAt: p.datetime().defaultRaw('now()'),
    /** Moves with any change of the collection, its debates and their order included. */
    updatedAt: p.datetime().defaultRaw('now()'),
  },
});

export class Collection extends CollectionSchema.class {}
CollectionSchema.setClass(Collection);
