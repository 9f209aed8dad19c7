import type { EntityManager } from '@mikro-orm/core';
import { query } from '../db/kysely.ts';
import type { DebateTables } from '../debates/tables.ts';
import type { CoreResources } from '../resources.ts';
import { notFound } from '../shared/app-error.ts';
import { findOwnChain } from './chain-views.ts';
import type { ChainTables } from './tables.ts';

/** What the chains' operations use of core's resources. */
export type ChainResources = Pick<CoreResources, 'db' | 'clock'>;

/** Typed queries on the chains' tables and the debates they hold, on `em`. */
export const chainQuery = (em: EntityManager) => query<ChainTables & DebateTables>(em);

/** The caller's chain, or NOT_FOUND: anyone else's chain is as absent as a missing one. */
export const readOwnChain = async (em: EntityManager, userId: string, chainId: string) => {
  const row = await findOwnChain(em, userId, chainId);
  if (!row) throw notFound('Chain');
  return row;
};
