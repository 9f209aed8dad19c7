import { createCollectionItems } from './collection-items.ts';
import type { CollectionResources } from './collection-resources.ts';
import { createCollection } from './create-collection.ts';
import { getCollection } from './get-collection.ts';
import { listCollections } from './list-collections.ts';
import { removeCollection } from './remove-collection.ts';
import { updateCollection } from './update-collection.ts';

/**
 * Collections: named lists of a user's own debates, private unless made public. Only the owner changes a
 * collection or its debates (anyone else: FORBIDDEN, a missing one: NOT_FOUND); deleting one removes the
 * memberships, never the debates. One operation a file, over the resources given here.
 */
export function createCollections(resources: CollectionResources) {
  return {
    create: createCollection(resources),
    list: listCollections(resources),
    get: getCollection(resources),
    update: updateCollection(resources),
    remove: removeCollection(resources),
    ...createCollectionItems(resources),
  };
}

export type Collections = ReturnType<typeof createCollections>;
