import type { EntityManager } from '@mikro-orm/core';
import { query } from '../../db/kysely.ts';
import type { CoreResources } from '../../resources.ts';
import type { DebateTables } from '../tables.ts';

/** What the debate events' reads use: the database, the bus whose events are followed, the error sink. */
export type DebateEventResources = Pick<CoreResources, 'db' | 'bus' | 'onError'>;

/** Typed queries on the debates' tables, on `em`. */
export const eventQuery = (em: EntityManager) => query<DebateTables>(em);
