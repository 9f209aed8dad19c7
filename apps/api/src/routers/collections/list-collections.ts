import { CollectionList } from '@verdict/contracts';
import { z } from 'zod';
import { userProcedure } from '../../trpc/init.ts';

export const listCollections = userProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/collections',
      summary: "The caller's collections, newest first",
      description: 'Without their debates: GET /api/collections/{id} reads one with its debates.',
    },
  })
  .input(z.void())
  .output(CollectionList)
  .query(({ ctx }) => ctx.services.collections.list(ctx.caller.userId));
