import { ApiKeyList } from '@verdict/contracts';
import { z } from 'zod';
import { userProcedure } from '../../trpc/init.ts';

export const listKeys = userProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/keys',
      summary: 'Active API keys of the caller, newest first; never the key values',
    },
  })
  .input(z.void())
  .output(ApiKeyList)
  .query(async ({ ctx }) => ({ keys: await ctx.services.apiKeys.list(ctx.caller.userId) }));
