import { ChainIdInput } from '@verdict/contracts';
import { z } from 'zod';
import { userProcedure } from '../../trpc/init.ts';
import { OWN_CHAIN_ERRORS } from './error-responses.ts';

export const deleteChain = userProcedure
  .meta({
    errors: OWN_CHAIN_ERRORS,
    successStatus: 204,
    openapi: {
      method: 'DELETE',
      path: '/api/chains/{id}',
      summary: 'Delete a decision chain; its debates are kept',
      description: 'Removes the chain and its links only: every debate it held stays as it was.',
    },
  })
  .input(ChainIdInput)
  .output(z.void())
  .mutation(({ ctx, input }) => ctx.services.chains.remove(ctx.caller.userId, input.id));
