import { addItem } from './add-item.ts';
import type { CollectionResources } from './collection-resources.ts';
import { dropDebates } from './drop-debates.ts';
import { removeItem } from './remove-item.ts';
import { reorderItems } from './reorder-items.ts';

/**
 * The debates of the caller's collections: add (at the end), remove, reorder, and drop the debates deleted
 * for good, one operation a file (item-positions.ts: what they share).
 */
export function createCollectionItems(resources: CollectionResources) {
  return {
    addItem: addItem(resources),
    dropDebates: dropDebates(resources),
    removeItem: removeItem(resources),
    reorderItems: reorderItems(resources),
  };
}
