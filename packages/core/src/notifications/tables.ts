import type { TablesOf } from '../db/kysely.ts';
import type { NotificationSchema } from './notification.entity.ts';
import type { NotificationPreferencesSchema } from './notification-preferences.entity.ts';

/** The tables notifications own, for typed queries (db/kysely.ts). */
export type NotificationTables = TablesOf<typeof NotificationSchema | typeof NotificationPreferencesSchema>;
