import { CollectionItemIdInput } from '@verdict/contracts';
import { z } from 'zod';
import { userProcedure } from '../../trpc/init.ts';

export const removeCollectionItem = userProcedure
  .meta({
    errors: {
      FORBIDDEN: 'The collection belongs to another user',
      NOT_FOUND: 'No such collection, or the debate is not in it',
    },
    successStatus: 204,
    openapi: {
      method: 'DELETE',
      path: '/api/collections/{id}/items/{debateId}',
      summary: 'Take a debate out of a collection; the debate is kept',
      description: 'The debates after it move up one place, so orders stay 0 to n-1.',
    },
  })
  .input(CollectionItemIdInput)
  .output(z.void())
  .mutation(({ ctx, input }) =>
    ctx.services.collections.removeItem(ctx.caller.userId, input.id, input.debateId),
  );
