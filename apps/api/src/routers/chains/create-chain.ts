import { CHAINS_PER_USER_MAX, Chain, CreateChainInput } from '@verdict/contracts';
import { userProcedure } from '../../trpc/init.ts';

export const createChain = userProcedure
  .meta({
    errors: {
      VALIDATION_ERROR: `The caller already has ${CHAINS_PER_USER_MAX} chains`,
      NOT_FOUND: "The root debate is missing, deleted, or not the caller's",
    },
    successStatus: 201,
    openapi: {
      method: 'POST',
      path: '/api/chains',
      summary: 'Start a decision chain from one of your debates',
      description:
        'The chain starts with its root debate only; later debates are added with POST ' +
        '/api/chains/{id}/debates. Raises the webhook event chain.created.',
    },
  })
  .input(CreateChainInput)
  .output(Chain)
  .mutation(({ ctx, input }) => ctx.services.chains.create(ctx.caller.userId, input));
