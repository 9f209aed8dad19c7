import { ApiKey, UpdateApiKeyInput } from '@verdict/contracts';
import { userProcedure } from '../../trpc/init.ts';

export const updateKey = userProcedure
  .meta({
    errors: {
      FORBIDDEN: 'The key belongs to another account',
      NOT_FOUND: 'No such key, or it was revoked',
    },
    openapi: {
      method: 'PATCH',
      path: '/api/keys/{id}',
      summary: 'Rename a key or replace its whole config',
    },
  })
  .input(UpdateApiKeyInput)
  .output(ApiKey)
  .mutation(({ ctx, input: { id, ...patch } }) => ctx.services.apiKeys.update(ctx.caller.userId, id, patch));
