import { createWebhook } from './create-webhook.ts';
import { listDeliveries } from './list-deliveries.ts';
import { listWebhooks } from './list-webhooks.ts';
import { pingWebhook } from './ping-webhook.ts';
import { redeliver } from './redeliver.ts';
import { removeWebhook } from './remove-webhook.ts';
import { updateWebhook } from './update-webhook.ts';
import type { WebhookResources } from './webhook-resources.ts';

/**
 * User webhooks: registration (the secret shown once), changes, removal with every delivery, the delivery
 * history, redelivery and test pings. Someone else's webhook is NOT_FOUND, as if it did not exist. Sending
 * is the engine nodes' work (dispatch.ts, deliveries.ts); routes only queue. One operation a file, over the
 * resources given here.
 */
export function createWebhooks(resources: WebhookResources) {
  return {
    create: createWebhook(resources),
    list: listWebhooks(resources),
    update: updateWebhook(resources),
    remove: removeWebhook(resources),
    deliveries: listDeliveries(resources),
    redeliver: redeliver(resources),
    test: pingWebhook(resources),
  };
}

export type Webhooks = ReturnType<typeof createWebhooks>;
