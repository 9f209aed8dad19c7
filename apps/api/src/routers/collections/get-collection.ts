import { CollectionIdInput, CollectionWithItems } from '@verdict/contracts';
import { optionalUserProcedure } from '../../trpc/init.ts';

export const getCollection = optionalUserProcedure
  .meta({
    errors: {
      FORBIDDEN: 'The collection is private and the caller is not its owner (or is not signed in)',
      NOT_FOUND: 'No such collection',
    },
    openapi: {
      method: 'GET',
      path: '/api/collections/{id}',
      summary: 'A collection with its debates, in order',
      description:
        'A public collection is readable without credentials. Soft-deleted debates are left out; readers ' +
        "other than the owner see only the collection's public debates, numbered 0 to n-1 among themselves.",
    },
  })
  .input(CollectionIdInput)
  .output(CollectionWithItems)
  .query(({ ctx, input }) => ctx.services.collections.get(ctx.caller?.userId ?? null, input.id));
