import { randomUUID } from 'node:crypto';
import type { QueuedWebhookDelivery } from '@verdict/contracts';
import { queueDelivery } from './queue-delivery.ts';
import { deliveryBody } from './signing.ts';
import { ownWebhook, type WebhookResources } from './webhook-resources.ts';

/** Queues a `ping` for the webhook, recorded in its history like any delivery; sent whether active or not. */
export const pingWebhook =
  ({ db, clock }: WebhookResources) =>
  (userId: string, webhookId: string): Promise<QueuedWebhookDelivery> =>
    db.em().transactional(async (em) => {
      const webhook = await ownWebhook(em, userId, webhookId, 'key share');
      const id = randomUUID();
      const body = deliveryBody({
        event: 'ping',
        id,
        at: new Date(clock.now()),
        data: { webhookId: webhook.id, message: 'Test ping from Verdict' },
      });
      // A ping reports no outbox event: its body's id is the delivery's own.
      return queueDelivery(em, clock, {
        id,
        webhookId,
        outboxId: null,
        redeliveryOf: null,
        event: 'ping',
        body,
      });
    });
