import type { ListWebhookDeliveriesInput, WebhookDeliveryList } from '@verdict/contracts';
import { sql } from 'kysely';
import { ownWebhook, type WebhookResources, webhookQuery } from './webhook-resources.ts';
import { DELIVERY_COLUMNS, toDelivery } from './webhook-views.ts';

/** The webhook's deliveries, newest first, each with its attempts. */
export const listDeliveries =
  ({ db }: WebhookResources) =>
  async (userId: string, input: ListWebhookDeliveriesInput): Promise<WebhookDeliveryList> => {
    const em = db.em();
    await ownWebhook(em, userId, input.id, null);
    const rows = await webhookQuery(em)
      .selectFrom('webhook_deliveries')
      .select(DELIVERY_COLUMNS)
      .where('webhook_id', '=', input.id)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(input.limit)
      .offset(input.offset)
      .execute();
    const { n: total } = await webhookQuery(em)
      .selectFrom('webhook_deliveries')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('webhook_id', '=', input.id)
      .executeTakeFirstOrThrow();
    const attempts =
      rows.length === 0
        ? []
        : await webhookQuery(em)
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
  };
