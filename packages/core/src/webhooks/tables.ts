import type { TablesOf } from '../db/kysely.ts';
import type { WebhookOutboxEntrySchema } from '../outbox/outbox-entry.entity.ts';
import type { WebhookSchema } from './webhook.entity.ts';
import type { WebhookDeliverySchema } from './webhook-delivery.entity.ts';
import type { WebhookDeliveryAttemptSchema } from './webhook-delivery-attempt.entity.ts';

/** The tables of webhooks, for typed queries (db/kysely.ts). */
export type WebhookTables = TablesOf<
  | typeof WebhookOutboxEntrySchema
  | typeof WebhookSchema
  | typeof WebhookDeliverySchema
  | typeof WebhookDeliveryAttemptSchema
>;
