import { router } from '../../trpc/init.ts';
import { addCollectionItem } from './add-item.ts';
import { createCollection } from './create-collection.ts';
import { deleteCollection } from './delete-collection.ts';
import { getCollection } from './get-collection.ts';
import { listCollections } from './list-collections.ts';
import { removeCollectionItem } from './remove-item.ts';
import { reorderCollectionItems } from './reorder-items.ts';
import { updateCollection } from './update-collection.ts';

export const collectionsRouter = router({
  create: createCollection,
  list: listCollections,
  get: getCollection,
  update: updateCollection,
  delete: deleteCollection,
  addItem: addCollectionItem,
  removeItem: removeCollectionItem,
  reorderItems: reorderCollectionItems,
});
