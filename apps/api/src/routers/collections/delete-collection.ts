import { CollectionIdInput } from '@verdict/contracts';
import { z } from 'zod';
import { userProcedure } from '../../trpc/init.ts';
import { OWN_COLLECTION_ERRORS } from './error-responses.ts';

export const deleteCollection = userProcedure
  .meta({
    errors: OWN_COLLECTION_ERRORS,
    successStatus: 204,
    openapi: {
      method: 'DELETE',
      path: '/api/collections/{id}',
      summary: 'Delete a collection; its debates are kept',
      description: 'Removes the collection and its memberships only: every debate it held stays as it was.',
    },
  })
  .input(CollectionIdInput)
  .output(z.void())
  .mutation(({ ctx, input }) => ctx.services.collections.remove(ctx.caller.userId, input.id));
