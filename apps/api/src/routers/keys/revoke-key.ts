import { KeyIdInput } from '@verdict/contracts';
import { z } from 'zod';
import { userProcedure } from '../../trpc/init.ts';

export const revokeKey = userProcedure
  .meta({
    successStatus: 204,
    openapi: {
      method: 'DELETE',
      path: '/api/keys/{id}',
      tags: ['keys'],
      summary: 'Revoke a key permanently; its next request gets 401',
      protect: true,
      errorResponses: {
        400: 'Invalid id',
        401: 'Not authenticated',
        403: 'Key of another account',
        404: 'Key missing or already revoked',
        429: 'Rate limited',
      },
    },
  })
  .input(KeyIdInput)
  .output(z.void())
  .mutation(({ ctx, input }) => ctx.core.apiKeys.revoke(ctx.caller.userId, input.id));
