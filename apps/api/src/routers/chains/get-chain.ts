import { ChainIdInput, ChainWithNodes } from '@verdict/contracts';
import { userProcedure } from '../../trpc/init.ts';
import { OWN_CHAIN_ERRORS } from './error-responses.ts';

export const getChain = userProcedure
  .meta({
    errors: OWN_CHAIN_ERRORS,
    openapi: {
      method: 'GET',
      path: '/api/chains/{id}',
      summary: 'A decision chain with its debates, as a tree',
      description:
        'The nodes come as a flat list in the order they were added, the root first (order 0). Each names ' +
        'its parent (null for the root), how it follows it, its depth and its children, so the tree is ' +
        'built without recursion. A soft-deleted debate keeps its place with debate null; one deleted for ' +
        'good leaves the chain, its children then hanging from its parent.',
    },
  })
  .input(ChainIdInput)
  .output(ChainWithNodes)
  .query(({ ctx, input }) => ctx.services.chains.get(ctx.caller.userId, input.id));
