import { WEBHOOK_EVENTS, type WebhookList } from '@verdict/contracts';
import { type WebhookResources, webhookQuery } from './webhook-resources.ts';
import { toWebhook, WEBHOOK_COLUMNS, type WebhookRow } from './webhook-views.ts';

/** The caller's webhooks, newest first, and every event one may subscribe to. */
export const listWebhooks =
  ({ db }: WebhookResources) =>
  async (userId: string): Promise<WebhookList> => {
    const rows = await webhookQuery(db.em())
      .selectFrom('webhooks')
      .select(WEBHOOK_COLUMNS)
      .where('user_id', '=', userId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
    return {
      webhooks: rows.map((row) => toWebhook(row as WebhookRow)),
      supportedEvents: [...WEBHOOK_EVENTS],
    };
  };
