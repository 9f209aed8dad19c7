import type { TablesOf } from '../db/kysely.ts';
import type { WebhookOutboxEntrySchema } from './outbox-entry.entity.ts';

/** The tables of webhooks, for typed queries (db/kysely.ts). */
export type WebhookTables = TablesOf<typeof WebhookOutboxEntrySchema>;
