import { defineEntity, p } from '@mikro-orm/core';
import type { WebhookDeliveryEvent, WebhookDeliveryStatus } from '@verdict/contracts';
import { Webhook } from './webhook.entity.ts';

/**
 * One event on its way to one webhook; its id is the deliveryId and the webhook-id header, the same on
 * every attempt. `body` is the exact text sent (and signed), so every attempt sends identical bytes.
 *
 * `due_at` is when a worker may take it: for a pending delivery its next attempt, for one being delivered
 * the end of its claim — a node that dies mid-send leaves it to be taken again once the claim runs out.
 */
export const WebhookDeliverySchema = defineEntity({
  name: 'WebhookDelivery',
  tableName: 'webhook_deliveries',
  indexes: [
    { name: 'webhook_deliveries_webhook_created_index', properties: ['webhook', 'createdAt'] },
    {
      name: 'webhook_deliveries_due_index',
      expression: `create index "webhook_deliveries_due_index" on "webhook_deliveries" ("due_at") where "status" in ('pending', 'delivering')`,
    },
    {
      name: 'webhook_deliveries_finished_created_index',
      expression: `create index "webhook_deliveries_finished_created_index" on "webhook_deliveries" ("created_at") where "status" in ('succeeded', 'failed')`,
    },
  ],
  checks: [
    {
      name: 'webhook_deliveries_status_check',
      expression: `status in ('pending', 'delivering', 'succeeded', 'failed')`,
    },
  ],
  properties: {
    id: p.uuid().primary().defaultRaw('gen_random_uuid()'),
    webhook: () => p.manyToOne(Webhook).deleteRule('cascade'),
    /** The outbox row it reports; null for a test ping. */
    outboxId: p.uuid().nullable(),
    /** The delivery a redeliver repeated. */
    redeliveryOf: p.uuid().nullable(),
    event: p.string().length(50).$type<WebhookDeliveryEvent>(),
    body: p.text(),
    status: p.string().length(20).$type<WebhookDeliveryStatus>().default('pending'),
    attempts: p.integer().default(0),
    dueAt: p.datetime().nullable(),
    /** The claim of the worker delivering it: only that claim may record the attempt's result. */
    claim: p.uuid().nullable(),
    lastStatusCode: p.integer().nullable(),
    createdAt: p.datetime().defaultRaw('now()'),
  },
});

export class WebhookDelivery extends WebhookDeliverySchema.class {}
WebhookDeliverySchema.setClass(WebhookDelivery);
