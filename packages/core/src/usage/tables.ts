import type { TablesOf } from '../db/kysely.ts';
import type { KeyUsageSchema } from './key-usage.entity.ts';

/** The tables usage owns, for typed queries (db/kysely.ts). */
export type UsageTables = TablesOf<typeof KeyUsageSchema>;
