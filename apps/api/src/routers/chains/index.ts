import { router } from '../../trpc/init.ts';
import { addChainDebate } from './add-chain-debate.ts';
import { createChain } from './create-chain.ts';
import { deleteChain } from './delete-chain.ts';
import { getChain } from './get-chain.ts';
import { getChainContext } from './get-chain-context.ts';
import { listChains } from './list-chains.ts';

export const chainsRouter = router({
  create: createChain,
  list: listChains,
  get: getChain,
  addDebate: addChainDebate,
  delete: deleteChain,
  context: getChainContext,
});
