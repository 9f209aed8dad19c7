import { type CreatedWebhook, type CreateWebhookInput, WEBHOOKS_PER_USER_MAX } from '@verdict/contracts';
import { assertUnderUserCap } from '../accounts/per-user-cap.ts';
import { changesOf } from '../audit/audit-changes.ts';
import { recordAudit } from '../audit/record-audit.ts';
import { newWebhookSecret } from './signing.ts';
import { assertTarget, type WebhookResources, webhookQuery } from './webhook-resources.ts';
import { auditedWebhook, toWebhook, WEBHOOK_COLUMNS, type WebhookRow } from './webhook-views.ts';

/** Registers a webhook within the per-user cap, recorded with it; its secret is in this answer only. */
export const createWebhook =
  ({ db, clock, policy }: WebhookResources) =>
  (userId: string, input: CreateWebhookInput): Promise<CreatedWebhook> => {
    assertTarget(policy, input.url);
    return db.em().transactional(async (em) => {
      await assertUnderUserCap(em, userId, {
        max: WEBHOOKS_PER_USER_MAX,
        noun: 'webhook',
        table: 'webhooks',
      });
      const at = new Date(clock.now());
      const secret = newWebhookSecret();
      const row = await webhookQuery(em)
        .insertInto('webhooks')
        .values({
          user_id: userId,
          url: input.url,
          events: input.events,
          active: input.active,
          description: input.description ?? null,
          secret,
          created_at: at,
          updated_at: at,
        })
        .returning(WEBHOOK_COLUMNS)
        .executeTakeFirstOrThrow();
      await recordAudit(em, clock, {
        owner: { accountId: userId },
        action: 'webhook.create',
        target: { type: 'webhook', id: row.id },
        // The secret is issued here: the entry says so, never what it is.
        changes: changesOf(null, { ...auditedWebhook(row as WebhookRow), secret: true }, ['secret']),
      });
      return { ...toWebhook(row as WebhookRow), secret };
    });
  };
