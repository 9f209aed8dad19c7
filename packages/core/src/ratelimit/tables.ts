import type { TablesOf } from '../db/kysely.ts';
import type { RateLimitCounterSchema } from './rate-limit-counter.entity.ts';

/** The tables rate limiting owns, for typed queries (db/kysely.ts). */
export type RateLimitTables = TablesOf<typeof RateLimitCounterSchema>;
