import { CollectionWithItems, ReorderCollectionInput } from '@verdict/contracts';
import { userProcedure } from '../../trpc/init.ts';
import { OWN_COLLECTION_ERRORS } from './error-responses.ts';

export const reorderCollectionItems = userProcedure
  .meta({
    errors: {
      VALIDATION_ERROR:
        'items does not name every debate of the collection exactly once with the orders 0 to n-1, each ' +
        'once (partial reorders are not supported)',
      ...OWN_COLLECTION_ERRORS,
    },
    openapi: {
      method: 'PATCH',
      path: '/api/collections/{id}/items/reorder',
      summary: 'Put the debates of a collection in a new order',
      description: 'Answers the collection with its debates in the new order.',
    },
  })
  .input(ReorderCollectionInput)
  .output(CollectionWithItems)
  .mutation(({ ctx, input }) =>
    ctx.services.collections.reorderItems(ctx.caller.userId, input.id, input.items),
  );
