import type { EntityManager } from '@mikro-orm/core';
import type { AccountTables } from '../accounts/tables.ts';
import { query } from '../db/kysely.ts';
import type { CoreResources } from '../resources.ts';
import type { ScheduleTables } from './tables.ts';

/** What the scheduled debates' operations use of core's resources. */
export type ScheduleResources = Pick<CoreResources, 'db' | 'clock'>;

/** Typed queries on the schedules and their owners' accounts, on `em`. */
export const scheduleQuery = (em: EntityManager) => query<ScheduleTables & AccountTables>(em);
