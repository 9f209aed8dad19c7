import { AddCollectionItemInput, COLLECTION_ITEMS_MAX, CollectionItem } from '@verdict/contracts';
import { userProcedure } from '../../trpc/init.ts';

export const addCollectionItem = userProcedure
  .meta({
    errors: {
      VALIDATION_ERROR: `The collection already holds ${COLLECTION_ITEMS_MAX} debates`,
      FORBIDDEN: 'The collection belongs to another user',
      NOT_FOUND:
        "No such collection, or no such debate of the caller's (missing, deleted, or another user's)",
      CONFLICT: 'The debate is already in the collection',
    },
    successStatus: 201,
    openapi: {
      method: 'POST',
      path: '/api/collections/{id}/items',
      summary: 'Add one of your debates at the end of a collection',
      description:
        'The caller must own both the collection and the debate. Answers the new item; its order is the ' +
        'number of debates the collection held before.',
    },
  })
  .input(AddCollectionItemInput)
  .output(CollectionItem)
  .mutation(({ ctx, input }) =>
    ctx.services.collections.addItem(ctx.caller.userId, input.id, input.debateId),
  );
