import { createChainDebates } from './chain-debates.ts';
import type { ChainResources } from './chain-resources.ts';
import { createChain } from './create-chain.ts';
import { getChain, getChainContext } from './get-chain.ts';
import { listChains } from './list-chains.ts';
import { removeChain } from './remove-chain.ts';

/**
 * Decision chains: trees of a user's related debates, grown from a root debate by adding debates that
 * follow up on, reverse or refine one already there. Only the owner sees or changes a chain: anyone
 * else's is NOT_FOUND on every route. Deleting a chain keeps its debates. One operation a file.
 */
export function createChains(resources: ChainResources) {
  return {
    create: createChain(resources),
    list: listChains(resources),
    get: getChain(resources),
    context: getChainContext(resources),
    remove: removeChain(resources),
    ...createChainDebates(resources),
  };
}

export type Chains = ReturnType<typeof createChains>;
