import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/core';
import {
  type CreatedWebhook,
  type CreateWebhookInput,
  type ListWebhookDeliveriesInput,
  type QueuedWebhookDelivery,
  type UpdateWebhookInput,
  WEBHOOK_EVENTS,
  WEBHOOKS_PER_USER_MAX,
  type Webhook,
  type WebhookDeliveryEvent,
  type WebhookDeliveryList,
  type WebhookList,
} from '@verdict/contracts';
import { sql } from 'kysely';
import { assertUnderUserCap } from '../accounts/per-user-cap.ts';
import { query } from '../db/kysely.ts';
import type { Database } from '../db/orm.ts';
import { refusalOfUrl, type SsrfPolicy } from '../net/ssrf-guard.ts';
import { AppError, notFound } from '../shared/app-error.ts';
import type { Clock } from '../shared/clock.ts';
import { deliveryBody, newWebhookSecret } from './signing.ts';
import type { WebhookTables } from './tables.ts';
import {
  DELIVERY_COLUMNS,
  toDelivery,
  toWebhook,
  WEBHOOK_COLUMNS,
  type WebhookRow,
} from './webhook-views.ts';

/**
 * User webhooks: registration (the secret shown once), changes, removal with every delivery, the delivery
 * history, redelivery and test pings. Someone else's webhook is NOT_FOUND, as if it did not exist. Sending
 * is the engine nodes' work (dispatch.ts, deliveries.ts); routes only queue.
 */
export function createWebhooks(
  db: Database,
  clock: Clock,
  policy: Pick<SsrfPolicy, 'allowHttp' | 'allowPrivate'>,
) {
  const k = (em: EntityManager = db.em()) => query<WebhookTables>(em);

  /** The URL's scheme and, when its host is an IP literal, that address; names are checked when connecting. */
  const assertTarget = (url: string) => {
    const refusal = refusalOfUrl(url, policy);
    if (refusal) {
      throw new AppError('VALIDATION_ERROR', `url: ${refusal}`, {
        details: [{ path: 'url', message: refusal, code: 'invalid_url' }],
      });
    }
  };

  /**
   * The caller's webhook, or NOT_FOUND. `update` locks it against every other change (a PUT or a DELETE in
   * between); `key share` only against its deletion: a route queueing a delivery holds it so that a DELETE
   * running at the same time either waits for the insert (and cascades it away) or has already removed the
   * row (NOT_FOUND here), never leaves the insert to fail on the foreign key. Lookups that only read take none.
   */
  const ownWebhook = async (
    em: EntityManager,
    userId: string,
    webhookId: string,
    lock: 'update' | 'key share' | null,
  ) => {
    let select = k(em).selectFrom('webhooks').select(WEBHOOK_COLUMNS).where('id', '=', webhookId);
    if (lock === 'update') select = select.forUpdate();
    if (lock === 'key share') select = select.forKeyShare();
    const row = await select.executeTakeFirst();
    if (!row || row.user_id !== userId) throw notFound('Webhook');
    return row as WebhookRow;
  };

  const queue = async (
    em: EntityManager,
    delivery: {
      id?: string;
      webhookId: string;
      outboxId: string | null;
      redeliveryOf: string | null;
      event: WebhookDeliveryEvent;
      body: string;
    },
  ): Promise<QueuedWebhookDelivery> => {
    const now = new Date(clock.now());
    const id = delivery.id ?? randomUUID();
    await k(em)
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
  };

  return {
    create: (userId: string, input: CreateWebhookInput): Promise<CreatedWebhook> => {
      assertTarget(input.url);
      return db.em().transactional(async (em) => {
        await assertUnderUserCap(em, userId, {
          max: WEBHOOKS_PER_USER_MAX,
          noun: 'webhook',
          count: async () =>
            (
              await k(em)
                .selectFrom('webhooks')
                .select(sql<number>`count(*)::int`.as('n'))
                .where('user_id', '=', userId)
                .executeTakeFirstOrThrow()
            ).n,
        });
        const at = new Date(clock.now());
        const secret = newWebhookSecret();
        const row = await k(em)
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
        return { ...toWebhook(row as WebhookRow), secret };
      });
    },

    /** The caller's webhooks, newest first, and every event one may subscribe to. */
    list: async (userId: string): Promise<WebhookList> => {
      const rows = await k()
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
    },

    /** Changes the fields given; the others keep their values. */
    update: (userId: string, webhookId: string, input: Omit<UpdateWebhookInput, 'id'>): Promise<Webhook> => {
      if (input.url !== undefined) assertTarget(input.url);
      return db.em().transactional(async (em) => {
        const row = await ownWebhook(em, userId, webhookId, 'update');
        const changes = {
          ...(input.url !== undefined ? { url: input.url } : {}),
          ...(input.events !== undefined ? { events: input.events } : {}),
          ...(input.active !== undefined ? { active: input.active } : {}),
          ...(input.description !== undefined ? { description: input.description } : {}),
        };
        if (Object.keys(changes).length === 0) return toWebhook(row);
        const updated = await k(em)
          .updateTable('webhooks')
          .set({ ...changes, updated_at: new Date(clock.now()) })
          .where('id', '=', webhookId)
          .returning(WEBHOOK_COLUMNS)
          .executeTakeFirstOrThrow();
        return toWebhook(updated as WebhookRow);
      });
    },

    /** Deletes the webhook; its deliveries and their attempts go with it (foreign keys cascade). */
    remove: (userId: string, webhookId: string): Promise<void> =>
      db.em().transactional(async (em) => {
        await ownWebhook(em, userId, webhookId, 'update');
        await k(em).deleteFrom('webhooks').where('id', '=', webhookId).execute();
      }),

    /** The webhook's deliveries, newest first, each with its attempts. */
    deliveries: async (userId: string, input: ListWebhookDeliveriesInput): Promise<WebhookDeliveryList> => {
      const em = db.em();
      await ownWebhook(em, userId, input.id, null);
      const rows = await k(em)
        .selectFrom('webhook_deliveries')
        .select(DELIVERY_COLUMNS)
        .where('webhook_id', '=', input.id)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(input.limit)
        .offset(input.offset)
        .execute();
      const { n: total } = await k(em)
        .selectFrom('webhook_deliveries')
        .select(sql<number>`count(*)::int`.as('n'))
        .where('webhook_id', '=', input.id)
        .executeTakeFirstOrThrow();
      const attempts =
        rows.length === 0
          ? []
          : await k(em)
              .selectFrom('webhook_delivery_attempts')
              .selectAll()
              .where(
                'delivery_id',
                'in',
                rows.map((row) => row.id),
              )
              .orderBy('attempt')
              .execute();
      return {
        deliveries: rows.map((row) => toDelivery(row, attempts)),
        total,
        limit: input.limit,
        offset: input.offset,
      };
    },

    /** Queues the delivery's exact body again under a new deliveryId (so a new webhook-id). */
    redeliver: (userId: string, webhookId: string, deliveryId: string): Promise<QueuedWebhookDelivery> =>
      db.em().transactional(async (em) => {
        await ownWebhook(em, userId, webhookId, 'key share');
        const original = await k(em)
          .selectFrom('webhook_deliveries')
          .select(['id', 'outbox_id', 'event', 'body'])
          .where('id', '=', deliveryId)
          .where('webhook_id', '=', webhookId)
          .executeTakeFirst();
        if (!original) throw notFound('Delivery');
        return queue(em, {
          webhookId,
          outboxId: original.outbox_id,
          redeliveryOf: original.id,
          event: original.event,
          body: original.body,
        });
      }),

    /** Queues a `ping` for the webhook, recorded in its history like any delivery; sent whether active or not. */
    test: (userId: string, webhookId: string): Promise<QueuedWebhookDelivery> =>
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
        return queue(em, { id, webhookId, outboxId: null, redeliveryOf: null, event: 'ping', body });
      }),
  };
}

export type Webhooks = ReturnType<typeof createWebhooks>;
