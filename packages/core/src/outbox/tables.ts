import type { TablesOf } from '../db/kysely.ts';
import type { WebhookOutboxEntrySchema } from './outbox-entry.entity.ts';

/** The outbox's table, for typed queries (db/kysely.ts). */
export type OutboxTables = TablesOf<typeof WebhookOutboxEntrySchema>;
