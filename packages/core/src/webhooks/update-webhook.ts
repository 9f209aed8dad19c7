import type { EntityManager } from '@mikro-orm/core';
import type { UpdateWebhookInput, Webhook } from '@verdict/contracts';
import { changesOf } from '../audit/audit-changes.ts';
import { recordAudit } from '../audit/record-audit.ts';
import type { Clock } from '../shared/clock.ts';
import { assertTarget, ownWebhook, type WebhookResources, webhookQuery } from './webhook-resources.ts';
import { auditedWebhook, toWebhook, WEBHOOK_COLUMNS, type WebhookRow } from './webhook-views.ts';

/** Changes the fields given (a pause or resume is `active`); the others keep their values. */
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
      await recordChanges(em, clock, row, updated as WebhookRow);
      return toWebhook(updated as WebhookRow);
    });
  };

/** The update's entry, when it changed a field's value (setting what was there already changes nothing). */
async function recordChanges(em: EntityManager, clock: Clock, before: WebhookRow, after: WebhookRow) {
  const changes = changesOf(auditedWebhook(before), auditedWebhook(after));
  if (Object.keys(changes).length === 0) return;
  await recordAudit(em, clock, {
    owner: { accountId: before.user_id },
    action: 'webhook.update',
    target: { type: 'webhook', id: before.id },
    changes,
  });
}
