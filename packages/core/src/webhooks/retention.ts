import { query } from '../db/kysely.ts';
import type { Database } from '../db/orm.ts';
import { deleteDispatchedBefore } from '../outbox/dispatch-statements.ts';
import type { Clock } from '../shared/clock.ts';
import type { WebhookTables } from './tables.ts';

/** How long delivery history and handled outbox rows are kept by default (WEBHOOK_RETENTION_DAYS). */
export const WEBHOOK_RETENTION_DAYS = 30;

/** What one pruning batch removed. */
export type Pruned = { deliveries: number; outboxRows: number };

/**
 * One bounded batch of webhook housekeeping: deletes up to `batch` finished deliveries (succeeded or failed)
 * created before `now - retentionMs` — their attempts go with them (the foreign key cascades, at most four
 * per delivery) — and up to `batch` outbox rows as old that are fanned out. Rows other
 * transactions hold are skipped (`skip locked`), so engine nodes pruning together take different rows and no
 * worker waits on a prune. Deliveries still pending or delivering are kept whatever their age: those of a
 * paused webhook wait for it.
 *
 * An outbox row is needed until it is fanned out to webhooks (`dispatched_at`): webhook delivery is its only
 * consumer (other background work keeps its own progress in its own table). Deleting a row frees its dedupe
 * key; every key names one occurrence (a debate's creation, an attempt's ending, a chain gaining a debate …),
 * which is not written again a month later.
 */
export async function pruneWebhookHistory(
  db: Database,
  clock: Clock,
  options: { retentionMs: number; batch: number },
): Promise<Pruned> {
  const k = query<WebhookTables>(db.em());
  const before = new Date(clock.now() - options.retentionMs).toISOString();
  const deliveries = await k
    .deleteFrom('webhook_deliveries')
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('webhook_deliveries')
        .select('id')
        .where('status', 'in', ['succeeded', 'failed'])
        .where('created_at', '<', before)
        .limit(options.batch)
        .forUpdate()
        .skipLocked(),
    )
    .executeTakeFirst();
  const outboxRows = await deleteDispatchedBefore(k, before, options.batch);
  return {
    deliveries: Number(deliveries.numDeletedRows),
    outboxRows,
  };
}
