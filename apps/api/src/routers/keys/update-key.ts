import { ApiKey, UpdateApiKeyInput } from '@verdict/contracts';
import { userProcedure } from '../../trpc/init.ts';

export const updateKey = userProcedure
  .meta({
    openapi: {
      method: 'PATCH',
      path: '/api/keys/{id}',
      tags: ['keys'],
      summary: 'Rename a key or replace its whole config',
      protect: true,
      errorResponses: {
        400: 'Invalid name or config',
        401: 'Not authenticated',
        403: 'Key of another account',
        404: 'Key missing or revoked',
        429: 'Rate limited',
      },
    },
  })
  .input(UpdateApiKeyInput)
  .output(ApiKey)
  .mutation(({ ctx, input: { id, ...patch } }) => ctx.core.apiKeys.update(ctx.caller.userId, id, patch));
