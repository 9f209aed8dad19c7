import { type DebateStatus, DebateStatus as DebateStatuses } from '@verdict/contracts';
import type { Database } from '../db/orm.ts';
import type { Clock } from '../shared/clock.ts';

/**
 * A read for a scraper, shared by every scrape within `ttlMs` of the last answer (and by scrapes that arrive
 * while it runs): however many scrapers, however often, the database sees at most one query per `ttlMs`. A
 * failed read is not kept, so the next scrape tries again.
 */
export function cachedRead<T>(read: () => Promise<T>, ttlMs: number, now: () => number = Date.now) {
  let kept: { value: Promise<T>; at: number } | null = null;
  return (): Promise<T> => {
    if (kept && now() - kept.at < ttlMs) return kept.value;
    const value = read();
    const entry = { value, at: now() };
    kept = entry;
    value.catch(() => {
      if (kept === entry) kept = null;
    });
    return value;
  };
}

/** Debates by status, every status present (0 when none): one grouped count. */
export async function debatesByStatus(db: Database): Promise<Record<DebateStatus, number>> {
  const rows = await db.execute<{ status: string; n: string | number }>(
    'select status, count(*) as n from debates group by status',
  );
  const counts = Object.fromEntries(DebateStatuses.options.map((s) => [s, 0])) as Record<
    DebateStatus,
    number
  >;
  for (const row of rows) {
    if (row.status in counts) counts[row.status as DebateStatus] = Number(row.n);
  }
  return counts;
}

/** What waits for the engine nodes' background workers, as one scrape reads it. */
export type WorkBacklog = {
  /** Seconds the oldest outbox row not yet fanned out to deliveries has waited (0: none waits). */
  outboxLagSeconds: number;
  /** Seconds the oldest due, undelivered webhook delivery has been due (0: none is due). */
  deliveryLagSeconds: number;
  /** Completed debates waiting for their embedding. */
  embeddingsPending: number;
  /** Uploaded files whose text is not extracted yet. */
  extractionsPending: number;
};

/**
 * The background work waiting, in one statement of four small reads (each on a partial or primary index).
 * Due as the webhook senders see it: a delivery of a paused webhook is not late, it waits on purpose.
 */
export async function workBacklog(db: Database, clock: Clock): Promise<WorkBacklog> {
  const [row] = await db.execute<Record<keyof WorkBacklog, string | number | null>>(
    `select
       (select extract(epoch from (?::timestamptz - min(created_at)))
          from webhook_outbox where dispatched_at is null) as "outboxLagSeconds",
       (select extract(epoch from (?::timestamptz - min(d.due_at)))
          from webhook_deliveries d join webhooks w on w.id = d.webhook_id
          where d.status in ('pending', 'delivering') and d.due_at <= ?::timestamptz
            and (w.active or d.event = 'ping' or d.redelivery_of is not null)) as "deliveryLagSeconds",
       (select count(*) from embedding_queue) as "embeddingsPending",
       (select count(*) from attachments where status = 'pending' and kind = 'file') as "extractionsPending"`,
    Array(3).fill(new Date(clock.now()).toISOString()),
  );
  // An outbox row stamped a moment ahead of this read's clock is not negative lag.
  const seconds = (v: string | number | null | undefined) => Math.max(0, Number(v ?? 0));
  return {
    outboxLagSeconds: seconds(row?.outboxLagSeconds),
    deliveryLagSeconds: seconds(row?.deliveryLagSeconds),
    embeddingsPending: Number(row?.embeddingsPending ?? 0),
    extractionsPending: Number(row?.extractionsPending ?? 0),
  };
}
