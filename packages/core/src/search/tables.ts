import type { TablesOf } from '../db/kysely.ts';
import type { SearchHistorySchema } from './search-history.entity.ts';

/** The tables search owns, for typed queries (db/kysely.ts). It reads debates through DebateTables. */
export type SearchTables = TablesOf<typeof SearchHistorySchema>;
