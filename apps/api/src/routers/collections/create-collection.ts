import { COLLECTIONS_PER_USER_MAX, Collection, CreateCollectionInput } from '@verdict/contracts';
import { userProcedure } from '../../trpc/init.ts';

export const createCollection = userProcedure
  .meta({
    errors: { VALIDATION_ERROR: `The caller already has ${COLLECTIONS_PER_USER_MAX} collections` },
    successStatus: 201,
    openapi: {
      method: 'POST',
      path: '/api/collections',
      summary: 'Create a collection',
      description:
        'Private unless isPublic is true. Debates are added one by one with POST /api/collections/{id}/items.',
    },
  })
  .input(CreateCollectionInput)
  .output(Collection)
  .mutation(({ ctx, input }) => ctx.services.collections.create(ctx.caller.userId, input));
