import { randomUUID } from 'node:crypto';
import { WEBHOOK_EVENTS, type WebhookEvent } from '@verdict/contracts';
import { query } from '../db/kysely.ts';
import type { Database } from '../db/orm.ts';
import { markDispatched, takeUndispatched } from '../outbox/dispatch-statements.ts';
import type { Clock } from '../shared/clock.ts';
import { deliveryBody } from './signing.ts';
import type { WebhookTables } from './tables.ts';

const DELIVERABLE = new Set<string>(WEBHOOK_EVENTS);

/** What one fan-out transaction did. */
export type FanOut = { taken: number; queued: number };

/**
 * One fan-out pass: takes outbox rows not yet dispatched (`skip locked`, so nodes passing together take
 * different rows), queues one delivery per active webhook of the row's user subscribed to its event, and
 * stamps the rows dispatched — all in one transaction, so a row is fanned out exactly once. Rows of events
 * webhooks do not carry are stamped without deliveries. Returns how many outbox rows it took (a full batch
 * means more may wait) and how many deliveries it queued (none means there is nothing new for the senders,
 * however many rows it took).
 */
export async function dispatchOutbox(db: Database, clock: Clock, batch: number): Promise<FanOut> {
  return db.em().transactional(async (em) => {
    const k = query<WebhookTables>(em);
    const rows = await takeUndispatched(k, batch);
    if (rows.length === 0) return { taken: 0, queued: 0 };
    const now = new Date(clock.now());
    const deliverable = rows.filter((row) => DELIVERABLE.has(row.event));
    const userIds = [...new Set(deliverable.map((row) => row.user_id))];
    const hooks =
      userIds.length === 0
        ? []
        : await k
            .selectFrom('webhooks')
            .select(['id', 'user_id', 'events'])
            .where('user_id', 'in', userIds)
            .where('active', '=', true)
            .execute();
    const deliveries = deliverable.flatMap((row) =>
      hooks
        .filter((hook) => hook.user_id === row.user_id && hook.events.includes(row.event as WebhookEvent))
        .map((hook) => ({
          id: randomUUID(),
          webhook_id: hook.id,
          outbox_id: row.id,
          event: row.event as WebhookEvent,
          body: deliveryBody({
            event: row.event,
            id: row.id,
            at: new Date(row.created_at),
            data: row.payload,
          }),
          status: 'pending' as const,
          due_at: now,
          created_at: now,
        })),
    );
    if (deliveries.length > 0) await k.insertInto('webhook_deliveries').values(deliveries).execute();
    await markDispatched(
      k,
      rows.map((row) => row.id),
      now,
    );
    return { taken: rows.length, queued: deliveries.length };
  });
}
