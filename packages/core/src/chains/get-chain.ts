import type { ChainContext, ChainWithNodes } from '@verdict/contracts';
import { chainContext } from './chain-context.ts';
import { type ChainResources, readOwnChain } from './chain-resources.ts';
import { readStoredNodes, toChain, toChainNodes } from './chain-views.ts';

/** The caller's chain with its nodes, in the order they were added. */
export const getChain =
  ({ db }: ChainResources) =>
  async (userId: string, chainId: string): Promise<ChainWithNodes> => {
    const row = await readOwnChain(db.em(), userId, chainId);
    return { ...toChain(row), nodes: toChainNodes(await readStoredNodes(db.em(), chainId)) };
  };

/** The chain summed up to pass as the `context` of the next debate (chain-context.ts). */
export const getChainContext =
  ({ db }: ChainResources) =>
  async (userId: string, chainId: string): Promise<ChainContext> => {
    const row = await readOwnChain(db.em(), userId, chainId);
    return { chainId, ...chainContext(row.name, await readStoredNodes(db.em(), chainId)) };
  };
