import { sql } from 'kysely';
import { query } from '../db/kysely.ts';
import type { Database } from '../db/orm.ts';
import type { Clock } from '../shared/clock.ts';
import type { WebhookTables } from './tables.ts';

/** How long delivery history and handled outbox rows are kept by default (WEBHOOK_RETENTION_DAYS). */
export const WEBHOOK_RETENTION_DAYS = 30;

/** What one pruning batch removed. */
export type Pruned = { deliveries: number; outboxRows: number };

/**
 * One bounded batch of webhook housekeeping: deletes up to `batch` finished deliveries (succeeded or failed)
 * created before `now - retentionMs` — their attempts go with them (the foreign key cascades, at most four
 * per delivery) — and up to `batch` outbox rows as old that no consumer needs any more. Rows other
 * transactions hold are skipped (`skip locked`), so engine nodes pruning together take different rows and no
 * worker waits on a prune. Deliveries still pending or delivering are kept whatever their age: those of a
 * paused webhook wait for it.
 *
 * An outbox row is needed while it matches one of its consumers' partial indexes (outbox-entry.entity.ts):
 * not yet fanned out to webhooks (`dispatched_at`), an outcome event not yet in its owner's score
 * (`scored_at`, outcomes/scores.ts), a completed debate not yet embedded (`embedded_at`, similar/; only
 * where the deployment embeds: `options.embeddings`). A new
 * consumer of the outbox must add its own condition here. Deleting a row frees its dedupe key; every key
 * names one occurrence (a debate's creation, an attempt's ending, a chain gaining a debate …), which is not
 * written again a month later.
 */
export async function pruneWebhookHistory(
  db: Database,
  clock: Clock,
  options: {
    retentionMs: number;
    batch: number;
    /**
     * Whether completed debates wait for their embedding: false where the deployment has no embedder
     * (nothing would ever stamp them, and they would be kept forever); a key configured later then embeds
     * only what is younger than the retention.
     */
    embeddings: boolean;
  },
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
  const outboxRows = await k
    .deleteFrom('webhook_outbox')
    .where('id', 'in', (eb) => {
      const handled = eb
        .selectFrom('webhook_outbox')
        .select('id')
        .where('created_at', '<', before)
        .where('dispatched_at', 'is not', null)
        .where(
          sql<boolean>`not (scored_at is null and event in ('debate.completed', 'outcome.recorded', 'outcome.updated'))`,
        );
      return (
        options.embeddings
          ? handled.where(sql<boolean>`not (embedded_at is null and event = 'debate.completed')`)
          : handled
      )
        .limit(options.batch)
        .forUpdate()
        .skipLocked();
    })
    .executeTakeFirst();
  return {
    deliveries: Number(deliveries.numDeletedRows),
    outboxRows: Number(outboxRows.numDeletedRows),
  };
}
