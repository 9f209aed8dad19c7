import { CreateApiKeyInput, CreatedApiKey } from '@verdict/contracts';
import { userProcedure } from '../../trpc/init.ts';

export const createKey = userProcedure
  .meta({
    successStatus: 201,
    openapi: {
      method: 'POST',
      path: '/api/keys',
      summary: 'Create an API key; the full key is in this response only',
    },
  })
  .input(CreateApiKeyInput)
  .output(CreatedApiKey)
  .mutation(({ ctx, input }) => ctx.services.apiKeys.create(ctx.caller.userId, input.name, input.config));
