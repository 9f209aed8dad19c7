import { KeyIdInput } from '@verdict/contracts';
import { z } from 'zod';
import { userProcedure } from '../../trpc/init.ts';

export const revokeKey = userProcedure
  .meta({
    errors: {
      FORBIDDEN: 'The key belongs to another account',
      NOT_FOUND: 'No such key, or it was revoked',
    },
    successStatus: 204,
    openapi: {
      method: 'DELETE',
      path: '/api/keys/{id}',
      summary: 'Revoke a key permanently; its next request gets 401',
    },
  })
  .input(KeyIdInput)
  .output(z.void())
  .mutation(({ ctx, input }) => ctx.services.apiKeys.revoke(ctx.caller.userId, input.id));
