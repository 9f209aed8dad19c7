import { recordAudit } from '../audit/record-audit.ts';
import { ownWebhook, type WebhookResources, webhookQuery } from './webhook-resources.ts';

/** Deletes the webhook; its deliveries and their attempts go with it (foreign keys cascade). */
export const removeWebhook =
  ({ db, clock }: WebhookResources) =>
  (userId: string, webhookId: string): Promise<void> =>
    db.em().transactional(async (em) => {
      await ownWebhook(em, userId, webhookId, 'update');
      await webhookQuery(em).deleteFrom('webhooks').where('id', '=', webhookId).execute();
      await recordAudit(em, clock, {
        owner: { accountId: userId },
        action: 'webhook.delete',
        target: { type: 'webhook', id: webhookId },
      });
    });
