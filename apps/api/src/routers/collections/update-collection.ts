import { Collection, UpdateCollectionInput } from '@verdict/contracts';
import { userProcedure } from '../../trpc/init.ts';
import { OWN_COLLECTION_ERRORS } from './error-responses.ts';

export const updateCollection = userProcedure
  .meta({
    errors: OWN_COLLECTION_ERRORS,
    openapi: {
      method: 'PATCH',
      path: '/api/collections/{id}',
      summary: 'Rename a collection, change its description, or make it public or private',
      description: 'The fields sent change; the others keep their values. description null clears it.',
    },
  })
  .input(UpdateCollectionInput)
  .output(Collection)
  .mutation(({ ctx, input: { id, ...changes } }) =>
    ctx.services.collections.update(ctx.caller.userId, id, changes),
  );
