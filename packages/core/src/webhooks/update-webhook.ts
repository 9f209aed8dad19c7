import type { UpdateWebhookInput, Webhook } from '@verdict/contracts';
import { assertTarget, ownWebhook, type WebhookResources, webhookQuery } from './webhook-resources.ts';
import { toWebhook, WEBHOOK_COLUMNS, type WebhookRow } from './webhook-views.ts';

/** Changes the fields given; the others keep their values. */
export const updateWebhook =
  ({ db, clock, policy }: WebhookResources) =>
  (userId: string, webhookId: string, input: Omit<UpdateWebhookInput, 'id'>): Promise<Webhook> => {
    if (input.url !== undefined) assertTarget(policy, input.url);
    return db.em().transactional(async (em) => {
      const row = await ownWebhook(em, userId, webhookId, 'update');
      const changes = {
        ...(input.url !== undefined ? { url: input.url } : {}),
        ...(input.events !== undefined ? { events: input.events } : {}),
        ...(input.active !== undefined ? { active: input.active } : {}),
        ...(input.description !== undefined ? { description: input.description } : {}),
      };
      if (Object.keys(changes).length === 0) return toWebhook(row);
      const updated = await webhookQuery(em)
        .updateTable('webhooks')
        .set({ ...changes, updated_at: new Date(clock.now()) })
        .where('id', '=', webhookId)
        .returning(WEBHOOK_COLUMNS)
        .executeTakeFirstOrThrow();
      return toWebhook(updated as WebhookRow);
    });
  };
