import type { EntityManager } from '@mikro-orm/core';
import { query } from '../db/kysely.ts';
import { refusalOfUrl, type SsrfPolicy } from '../net/ssrf-guard.ts';
import type { CoreResources } from '../resources.ts';
import { AppError, notFound } from '../shared/app-error.ts';
import type { WebhookTables } from './tables.ts';
import { WEBHOOK_COLUMNS, type WebhookRow } from './webhook-views.ts';

/** What the webhooks' operations run on. */
export type WebhookResources = Pick<CoreResources, 'db' | 'clock'> & {
  /** What the SSRF guard relaxes for webhook addresses (development only). */
  policy: Pick<SsrfPolicy, 'allowHttp' | 'allowPrivate'>;
};

/** Typed queries on the webhooks' tables, on `em` (a transaction's) or the request's own. */
export const webhookQuery = (em: EntityManager) => query<WebhookTables>(em);

/** The URL's scheme and, when its host is an IP literal, that address; names are checked when connecting. */
export function assertTarget(policy: WebhookResources['policy'], url: string) {
  const refusal = refusalOfUrl(url, policy);
  if (refusal) {
    throw new AppError('VALIDATION_ERROR', `url: ${refusal}`, {
      details: [{ path: 'url', message: refusal, code: 'invalid_url' }],
    });
  }
}

/**
 * The caller's webhook, or NOT_FOUND. `update` locks it against every other change (a PUT or a DELETE in
 * between); `key share` only against its deletion: a route queueing a delivery holds it so that a DELETE
 * running at the same time either waits for the insert (and cascades it away) or has already removed the
 * row (NOT_FOUND here), never leaves the insert to fail on the foreign key. Lookups that only read take none.
 */
export async function ownWebhook(
  em: EntityManager,
  userId: string,
  webhookId: string,
  lock: 'update' | 'key share' | null,
) {
  let select = webhookQuery(em).selectFrom('webhooks').select(WEBHOOK_COLUMNS).where('id', '=', webhookId);
  if (lock === 'update') select = select.forUpdate();
  if (lock === 'key share') select = select.forKeyShare();
  const row = await select.executeTakeFirst();
  if (!row || row.user_id !== userId) throw notFound('Webhook');
  return row as WebhookRow;
}
