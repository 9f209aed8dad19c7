import { router } from '../../trpc/init.ts';
import { createWebhook } from './create-webhook.ts';
import { deleteWebhook } from './delete-webhook.ts';
import { listWebhookDeliveries } from './list-deliveries.ts';
import { listWebhooks } from './list-webhooks.ts';
import { redeliverWebhook } from './redeliver.ts';
import { testWebhook } from './test-webhook.ts';
import { updateWebhook } from './update-webhook.ts';

export const webhooksRouter = router({
  list: listWebhooks,
  create: createWebhook,
  update: updateWebhook,
  delete: deleteWebhook,
  deliveries: listWebhookDeliveries,
  redeliver: redeliverWebhook,
  test: testWebhook,
});
