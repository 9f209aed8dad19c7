import { sql } from 'kysely';
import { query } from '../db/kysely.ts';
import type { Database } from '../db/orm.ts';
import type { CoreResources } from '../resources.ts';
import { createBatchedCounter } from '../shared/batched-counter.ts';
import type { Clock } from '../shared/clock.ts';

/** One count's identity: a key, a UTC month, an endpoint (a route template). */
export type UsageCell = { keyId: string; period: string; endpoint: string };

/** The first day of the UTC month of `at` (epoch ms), as YYYY-MM-01. */
export const usagePeriod = (at: number): string => `${new Date(at).toISOString().slice(0, 7)}-01`;

/** usagePeriod for a clock that is read on every request: worked out again only when the month changes. */
function periodOf(clock: Clock): () => string {
  let current = { period: '', from: 0, until: 0 };
  return () => {
    const now = clock.now();
    if (now < current.from || now >= current.until) {
      const date = new Date(now);
      current = {
        period: usagePeriod(now),
        from: Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1),
        until: Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1),
      };
    }
    return current.period;
  };
}

export type UsageSettings = {
  /** How often the counts are written (at least once a second for the spec's freshness). */
  flushIntervalMs?: number;
};

/** What the usage counts use: core's database, clock and error report, and how often the counts are written. */
export type UsageResources = Pick<CoreResources, 'db' | 'reads' | 'clock' | 'onError'> & UsageSettings;

/**
 * The counts of this process, created once per createUsage: the current month (worked out again only when it
 * changes) and the batch of unwritten counts, written by its timer.
 */
export type UsageCounts = ReturnType<typeof createUsageCounts>;

export function createUsageCounts({ db, reads, clock, onError, flushIntervalMs }: UsageResources) {
  /**
   * Where the primary's WAL stood after this process last wrote its counts: a read on a replica must have
   * replayed that far, or it would miss counts that are no longer among the unwritten ones. Learnt in the
   * write (so reads, which wait for a write under way, see it); a failure to learn it sends reads to the
   * primary until the next write, rather than failing a write that is stored already.
   */
  let written: bigint | null = null;
  const notePosition = async () => {
    if (!reads) return;
    written = await reads.positionNow().catch(() => UNKNOWN_POSITION);
  };
  return {
    period: periodOf(clock),
    writtenUpTo: () => written,
    counter: createBatchedCounter<UsageCell>({
      identify: (cell) => `${cell.keyId} ${cell.period} ${cell.endpoint}`,
      onError,
      ...(flushIntervalMs ? { intervalMs: flushIntervalMs } : {}),
      write: async (batch) => {
        await writeUsage(db, batch);
        await notePosition();
      },
    }),
  };
}

/** Past any WAL position a replica can have replayed: the primary answers. */
const UNKNOWN_POSITION = 2n ** 64n;

/**
 * Adds a batch to the stored counts in one statement. Rows go in key order, so two processes adding to the
 * same rows lock them in the same order and cannot deadlock. A key deleted since it was counted (with its
 * account) takes its counts with it instead of failing the batch for everyone.
 */
async function writeUsage(db: Database, batch: { key: UsageCell; n: number }[]) {
  const rows = JSON.stringify(
    batch.map(({ key, n }) => ({ key_id: key.keyId, period: key.period, endpoint: key.endpoint, count: n })),
  );
  await sql`insert into key_usage (key_id, period, endpoint, count)
    select r.key_id, r.period, r.endpoint, r.count
      from jsonb_to_recordset(${rows}::jsonb) as r(key_id uuid, period date, endpoint text, count bigint)
      join api_keys k on k.id = r.key_id
      order by r.key_id, r.period, r.endpoint
    on conflict (key_id, period, endpoint) do update set count = key_usage.count + excluded.count`.execute(
    query(db.em()),
  );
}
