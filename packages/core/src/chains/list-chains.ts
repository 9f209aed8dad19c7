import type { ChainList } from '@verdict/contracts';
import { type ChainResources, chainQuery } from './chain-resources.ts';
import { chainColumns, toChain } from './chain-views.ts';

/** The caller's chains, newest first, without their nodes (at most CHAINS_PER_USER_MAX). */
export const listChains =
  ({ db }: ChainResources) =>
  async (userId: string): Promise<ChainList> => {
    const rows = await chainQuery(db.em())
      .selectFrom('decision_chains')
      .select(chainColumns)
      .where('decision_chains.user_id', '=', userId)
      .orderBy('decision_chains.created_at', 'desc')
      .orderBy('decision_chains.id', 'desc')
      .execute();
    return { chains: rows.map(toChain) };
  };
