import type { QueuedWebhookDelivery } from '@verdict/contracts';
import { notFound } from '../shared/app-error.ts';
import { queueDelivery } from './queue-delivery.ts';
import { ownWebhook, type WebhookResources, webhookQuery } from './webhook-resources.ts';

/** Queues the delivery's exact body again under a new deliveryId (so a new webhook-id). */
export const redeliver =
  ({ db, clock }: WebhookResources) =>
  (userId: string, webhookId: string, deliveryId: string): Promise<QueuedWebhookDelivery> =>
    db.em().transactional(async (em) => {
      await ownWebhook(em, userId, webhookId, 'key share');
      const original = await webhookQuery(em)
        .selectFrom('webhook_deliveries')
        .select(['id', 'outbox_id', 'event', 'body'])
        .where('id', '=', deliveryId)
        .where('webhook_id', '=', webhookId)
        .executeTakeFirst();
      if (!original) throw notFound('Delivery');
      return queueDelivery(em, clock, {
        webhookId,
        outboxId: original.outbox_id,
        redeliveryOf: original.id,
        event: original.event,
        body: original.body,
      });
    });
