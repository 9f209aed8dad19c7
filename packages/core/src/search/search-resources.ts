import type { EntityManager } from '@mikro-orm/core';
import type { AccountTables } from '../accounts/tables.ts';
import { query } from '../db/kysely.ts';
import type { DebateTables } from '../debates/tables.ts';
import type { CoreResources } from '../resources.ts';
import type { SearchTables } from './tables.ts';

/**
 * Debates of the user closest in meaning to `q`, best first, as many as `limit` (similar/: embeddings).
 * Search appends those its keyword matching missed.
 */
export type SemanticHits = (
  userId: string,
  q: string,
  limit: number,
) => Promise<{ id: string; similarity: number }[]>;

export type SearchOptions = {
  /** Where semantic hits come from; none: search is keyword and full text only. */
  semanticHits?: SemanticHits;
};

/** What search and the search history use: core's database and clock, and where semantic hits come from. */
export type SearchResources = Pick<CoreResources, 'db' | 'reads' | 'clock'> & SearchOptions;

/** Typed queries on the search history, the debates searched and their owners, on `em`. */
export const searchQuery = (em: EntityManager) => query<SearchTables & DebateTables & AccountTables>(em);
