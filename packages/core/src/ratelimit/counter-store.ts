import type { Database } from '../db/orm.ts';

/**
 * Counters keyed by (bucket, window). The memory store serves one process (embedded mode); the Postgres
 * store is shared by every API process on the same database, so a limit holds across them.
 */
export type CounterStore = {
  /** Adds one to the counter and returns its new value. `ttlMs` bounds how long the counter is kept. */
  increment: (bucket: string, window: number, ttlMs: number) => Promise<number>;
  /** Adds one to each bucket's counter of `window` at once (one round trip); new values in bucket order. */
  incrementMany: (buckets: string[], window: number, ttlMs: number) => Promise<number[]>;
  read: (bucket: string, window: number) => Promise<number>;
  close: () => Promise<void>;
};

export function memoryCounterStore(now: () => number = Date.now): CounterStore {
  const counters = new Map<string, { count: number; expiresAt: number }>();
  const sweep = setInterval(() => {
    const t = now();
    for (const [key, entry] of counters) if (entry.expiresAt <= t) counters.delete(key);
  }, 60_000).unref();
  const increment = (bucket: string, window: number, ttlMs: number) => {
    const key = `${bucket}|${window}`;
    const entry = counters.get(key) ?? { count: 0, expiresAt: now() + ttlMs };
    entry.count += 1;
    counters.set(key, entry);
    return entry.count;
  };
  return {
    increment: async (bucket, window, ttlMs) => increment(bucket, window, ttlMs),
    incrementMany: async (buckets, window, ttlMs) => buckets.map((b) => increment(b, window, ttlMs)),
    read: async (bucket, window) => counters.get(`${bucket}|${window}`)?.count ?? 0,
    close: async () => clearInterval(sweep),
  };
}

const INCREMENT_SQL = `insert into rate_limit_counters (bucket, window_start, count, expires_at)
  values (?, ?, 1, now() + (?::int * interval '1 millisecond'))
  on conflict (bucket, window_start) do update set count = rate_limit_counters.count + 1
  returning count`;

const INCREMENT_MANY_SQL = `insert into rate_limit_counters (bucket, window_start, count, expires_at)
  select b.bucket, ?, 1, now() + (?::int * interval '1 millisecond')
    from jsonb_array_elements_text(?::jsonb) as b(bucket)
  on conflict (bucket, window_start) do update set count = rate_limit_counters.count + 1
  returning bucket, count`;

export function postgresCounterStore(db: Database, onError: (err: unknown) => void): CounterStore {
  // Expired rows are swept once a minute by whichever process gets there; deleting is idempotent.
  const sweep = setInterval(() => {
    db.execute('delete from rate_limit_counters where expires_at < now()').catch(onError);
  }, 60_000).unref();
  return {
    increment: async (bucket, window, ttlMs) => {
      const [row] = await db.execute<{ count: number }>(INCREMENT_SQL, [bucket, window, ttlMs]);
      return Number(row?.count ?? 0);
    },
    incrementMany: async (buckets, window, ttlMs) => {
      const rows = await db.execute<{ bucket: string; count: number }>(INCREMENT_MANY_SQL, [
        window,
        ttlMs,
        JSON.stringify(buckets),
      ]);
      const counts = new Map(rows.map((row) => [row.bucket, Number(row.count)]));
      return buckets.map((bucket) => counts.get(bucket) ?? 0);
    },
    read: async (bucket, window) => {
      const [row] = await db.execute<{ count: number }>(
        'select count from rate_limit_counters where bucket = ? and window_start = ?',
        [bucket, window],
      );
      return Number(row?.count ?? 0);
    },
    close: async () => clearInterval(sweep),
  };
}
