import type { Usage } from '@verdict/contracts';
import { sql } from 'kysely';
import { query } from '../db/kysely.ts';
import type { Database } from '../db/orm.ts';
import type { KeyPrincipal } from '../keys/api-keys.ts';
import { keyRateLimit } from '../ratelimit/rate-limits.ts';
import { createBatchedCounter } from '../shared/batched-counter.ts';
import type { Clock } from '../shared/clock.ts';
import type { UsageTables } from './tables.ts';

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

export type KeyUsage = ReturnType<typeof createUsage>;

/**
 * Requests per API key, month and endpoint. Counting is in memory (no database write on a request's path);
 * every API process adds its counts to `key_usage` once a second in one statement, and on close. A read adds
 * this process's unwritten counts to the stored ones; other processes' show within a second.
 */
export function createUsage(
  db: Database,
  clock: Clock,
  onError: (error: unknown) => void,
  settings: UsageSettings = {},
) {
  const period = periodOf(clock);
  const counter = createBatchedCounter<UsageCell>({
    identify: (cell) => `${cell.keyId} ${cell.period} ${cell.endpoint}`,
    onError,
    ...(settings.flushIntervalMs ? { intervalMs: settings.flushIntervalMs } : {}),
    write: (batch) => writeUsage(db, batch),
  });

  return {
    /** Counts one request made with the key to `endpoint`, in the UTC month of now. */
    count: (keyId: string, endpoint: string): void => {
      counter.add({ keyId, period: period(), endpoint });
    },

    /** The key's usage in the current UTC month: what every process wrote, plus what this one has not yet. */
    ofKey: (key: Pick<KeyPrincipal, 'keyId' | 'accountLimit' | 'config'>): Promise<Usage> =>
      counter.betweenWrites(async () => {
        const month = period();
        const rows = await query<UsageTables>(db.em())
          .selectFrom('key_usage')
          .select(['endpoint', 'count'])
          .where('key_id', '=', key.keyId)
          .where('period', '=', month)
          .execute();
        const byEndpoint = new Map(rows.map((row) => [row.endpoint, Number(row.count)]));
        for (const { key: cell, n } of counter.unwritten()) {
          if (cell.keyId === key.keyId && cell.period === month) {
            byEndpoint.set(cell.endpoint, (byEndpoint.get(cell.endpoint) ?? 0) + n);
          }
        }
        let totalRequests = 0;
        for (const n of byEndpoint.values()) totalRequests += n;
        return {
          keyId: key.keyId,
          period: month,
          totalRequests,
          byEndpoint: Object.fromEntries(byEndpoint),
          rateLimit: keyRateLimit(key.accountLimit, key.config?.rateLimit),
        };
      }),

    /** Writes the counts so far (the timer does it every second; tests and shutdown call it). */
    flush: counter.flush,
    close: counter.close,
  };
}

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
