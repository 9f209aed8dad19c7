import { defineEntity, p } from '@mikro-orm/core';
import { User } from '../accounts/user.entity.ts';

/**
 * A webhook event waiting for delivery, written in the same transaction as what it reports (a debate's
 * final state …). The dedupe key makes a second write of the same occurrence a no-op. Only webhook delivery
 * reads it: other background work keeps its own progress in a table of its own.
 */
export const WebhookOutboxEntrySchema = defineEntity({
  name: 'WebhookOutboxEntry',
  tableName: 'webhook_outbox',
  indexes: [
    { name: 'webhook_outbox_created_index', properties: ['createdAt'] },
    {
      name: 'webhook_outbox_pending_index',
      expression: `create index "webhook_outbox_pending_index" on "webhook_outbox" ("created_at") where "dispatched_at" is null`,
    },
  ],
  properties: {
    id: p.uuid().primary().defaultRaw('gen_random_uuid()'),
    user: () => p.manyToOne(User).deleteRule('cascade'),
    event: p.string().length(50),
    debateId: p.uuid().nullable(),
    dedupeKey: p.string().length(200).unique(),
    payload: p.json<Record<string, unknown>>(),
    createdAt: p.datetime().defaultRaw('now()'),
    dispatchedAt: p.datetime().nullable(),
    /** The W3C traceparent of the work that queued the row, when tracing was on (its deliveries continue it). */
    traceParent: p.string().length(64).nullable(),
  },
});

export class WebhookOutboxEntry extends WebhookOutboxEntrySchema.class {}
WebhookOutboxEntrySchema.setClass(WebhookOutboxEntry);
