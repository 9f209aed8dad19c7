import { CreateApiKeyInput, CreatedApiKey } from '@verdict/contracts';
import { userProcedure } from '../../trpc/init.ts';

export const createKey = userProcedure
  .meta({
    successStatus: 201,
    openapi: {
      method: 'POST',
      path: '/api/keys',
      tags: ['keys'],
      summary: 'Create an API key; the full key is in this response only',
      protect: true,
      errorResponses: { 400: 'Invalid name or config', 401: 'Not authenticated', 429: 'Rate limited' },
    },
  })
  .input(CreateApiKeyInput)
  .output(CreatedApiKey)
  .mutation(({ ctx, input }) => ctx.core.apiKeys.create(ctx.caller.userId, input.name, input.config));
