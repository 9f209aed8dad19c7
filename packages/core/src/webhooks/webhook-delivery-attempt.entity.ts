import { defineEntity, p } from '@mikro-orm/core';
import { WebhookDelivery } from './webhook-delivery.entity.ts';

/** One attempt of a delivery and what came of it: the answer's status and first 1 KB, or why none came. */
export const WebhookDeliveryAttemptSchema = defineEntity({
  name: 'WebhookDeliveryAttempt',
  tableName: 'webhook_delivery_attempts',
  properties: {
    delivery: () => p.manyToOne(WebhookDelivery).primary().deleteRule('cascade').updateRule('no action'),
    attempt: p.integer().primary(),
    startedAt: p.datetime(),
    statusCode: p.integer().nullable(),
    durationMs: p.integer(),
    responseExcerpt: p.string().length(1024).nullable(),
    error: p.string().length(500).nullable(),
  },
});

export class WebhookDeliveryAttempt extends WebhookDeliveryAttemptSchema.class {}
WebhookDeliveryAttemptSchema.setClass(WebhookDeliveryAttempt);
