import type { TablesOf } from '../db/kysely.ts';
import type { ScheduledDebateSchema } from './scheduled-debate.entity.ts';
import type { ScheduledRunSchema } from './scheduled-run.entity.ts';

/** The tables scheduled debates own, for typed queries (db/kysely.ts). */
export type ScheduleTables = TablesOf<typeof ScheduledDebateSchema | typeof ScheduledRunSchema>;
