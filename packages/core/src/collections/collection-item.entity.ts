import { defineEntity, p } from '@mikro-orm/core';
import { Debate } from '../debates/debate.entity.ts';
import { Collection } from './collection.entity.ts';

/**
 * A debate's place in a collection. Positions are kept dense (0 to n-1) by every writer, which holds the
 * collection's row locked; the unique (collection, position) constraint is deferrable so that one statement
 * may move several positions at once (a removal's renumbering, a reorder) and is checked at its end.
 */
export const CollectionItemSchema = defineEntity({
  name: 'CollectionItem',
  tableName: 'collection_items',
  uniques: [
    {
      name: 'collection_items_collection_id_position_unique',
      properties: ['collection', 'position'],
      deferMode: 'immediate',
    },
  ],
  checks: [{ name: 'collection_items_position_check', expression: 'position >= 0' }],
  properties: {
    // Keys that are only foreign keys get `on update cascade` by default; ids never change.
    collection: () => p.manyToOne(Collection).primary().deleteRule('cascade').updateRule('no action'),
    // Indexed for the cascade when a debate is deleted for good.
    debate: () => p.manyToOne(Debate).primary().deleteRule('cascade').updateRule('no action').index(),
    position: p.integer(),
    addedAt: p.datetime().defaultRaw('now()'),
  },
});

export class CollectionItem extends CollectionItemSchema.class {}
CollectionItemSchema.setClass(CollectionItem);
