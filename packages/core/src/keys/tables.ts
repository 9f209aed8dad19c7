import type { TablesOf } from '../db/kysely.ts';
import type { ApiKeySchema } from './api-key.entity.ts';

/** The tables keys own, for typed queries (db/kysely.ts). */
export type KeyTables = TablesOf<typeof ApiKeySchema>;
