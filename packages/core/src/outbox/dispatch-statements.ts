import type { Kysely } from 'kysely';
import type { OutboxTables } from './tables.ts';

/**
 * The outbox's statements for the feature that fans its rows out (webhooks/dispatch.ts, webhooks/retention.ts):
 * the rows are written only here, in outbox/, whoever asks. Each runs on the caller's connection, so in its
 * transaction.
 */

/** Up to `batch` rows not yet dispatched, oldest first, locked and skipped by whoever holds them already. */
export const takeUndispatched = (k: Kysely<OutboxTables>, batch: number) =>
  k
    .selectFrom('webhook_outbox')
    .select(['id', 'user_id', 'event', 'payload', 'created_at'])
    .where('dispatched_at', 'is', null)
    .orderBy('created_at')
    .limit(batch)
    .forUpdate()
    .skipLocked()
    .execute();

/** Stamps rows dispatched: fanned out, never taken again. */
export const markDispatched = async (k: Kysely<OutboxTables>, ids: string[], at: Date) => {
  if (ids.length === 0) return;
  await k.updateTable('webhook_outbox').set({ dispatched_at: at }).where('id', 'in', ids).execute();
};

/** Deletes up to `batch` dispatched rows written before `before`; how many it deleted. */
export const deleteDispatchedBefore = async (k: Kysely<OutboxTables>, before: string, batch: number) => {
  const deleted = await k
    .deleteFrom('webhook_outbox')
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('webhook_outbox')
        .select('id')
        .where('created_at', '<', before)
        .where('dispatched_at', 'is not', null)
        .limit(batch)
        .forUpdate()
        .skipLocked(),
    )
    .executeTakeFirst();
  return Number(deleted.numDeletedRows);
};
