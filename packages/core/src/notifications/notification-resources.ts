import type { EntityManager } from '@mikro-orm/core';
import { query } from '../db/kysely.ts';
import type { CoreResources } from '../resources.ts';
import type { NotificationTables } from './tables.ts';

/** What the notifications' operations use: core's database, clock, bus (live delivery) and error sink. */
export type NotificationResources = Pick<CoreResources, 'db' | 'clock' | 'bus' | 'onError'> & {
  /** The key unsubscribe links are signed with (EMAIL_LINK_SECRET); null: no link is valid. */
  linkSecret: string | null;
};

/** Typed queries on the notifications' tables, on `em`. */
export const notificationQuery = (em: EntityManager) => query<NotificationTables>(em);
