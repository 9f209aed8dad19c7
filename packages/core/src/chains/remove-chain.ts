import { lockOwnChain } from './chain-debates.ts';
import { type ChainResources, chainQuery } from './chain-resources.ts';

/** Deletes the chain and its nodes (the foreign key cascades); the debates stay. */
export const removeChain =
  ({ db }: ChainResources) =>
  (userId: string, chainId: string): Promise<void> =>
    db.em().transactional(async (em) => {
      await lockOwnChain(em, userId, chainId);
      await chainQuery(em).deleteFrom('decision_chains').where('id', '=', chainId).execute();
    });
