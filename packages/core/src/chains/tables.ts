import type { TablesOf } from '../db/kysely.ts';
import type { ChainNodeSchema } from './chain-node.entity.ts';
import type { DecisionChainSchema } from './decision-chain.entity.ts';

/** The tables decision chains own, for typed queries (db/kysely.ts). */
export type ChainTables = TablesOf<typeof DecisionChainSchema | typeof ChainNodeSchema>;
