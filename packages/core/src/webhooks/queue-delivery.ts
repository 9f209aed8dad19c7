import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/core';
import type { QueuedWebhookDelivery, WebhookDeliveryEvent } from '@verdict/contracts';
import type { Clock } from '../shared/clock.ts';
import { webhookQuery } from './webhook-resources.ts';

/** A delivery due now, for the engine nodes to send (dispatch.ts, deliveries.ts); routes only queue. */
export async function queueDelivery(
  em: EntityManager,
  clock: Clock,
  delivery: {
    id?: string;
    webhookId: string;
    outboxId: string | null;
    redeliveryOf: string | null;
    event: WebhookDeliveryEvent;
    body: string;
  },
): Promise<QueuedWebhookDelivery> {
  const now = new Date(clock.now());
  const id = delivery.id ?? randomUUID();
  await webhookQuery(em)
    .insertInto('webhook_deliveries')
    .values({
      id,
      webhook_id: delivery.webhookId,
      outbox_id: delivery.outboxId,
      redelivery_of: delivery.redeliveryOf,
      event: delivery.event,
      body: delivery.body,
      status: 'pending',
      due_at: now,
      created_at: now,
    })
    .execute();
  return { deliveryId: id, status: 'pending' };
}
