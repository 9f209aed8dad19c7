import { sql } from 'kysely';
import { query } from '../db/kysely.ts';
import type { Database } from '../db/orm.ts';
import { coalescedIncrements, rowKey, type WriteIncrements } from './coalesced-increments.ts';
import type { RateLimitTables } from './tables.ts';

/**
 * Counters keyed by (bucket, window). The memory store serves one process (embedded mode); the Postgres
 * store is shared by every API process on the same database, so a limit holds across them.
 */
export type CounterStore = {
  /**
   * Whether other processes count on the same counters: a process then takes a hot counter's units a lease
   * at a time (counter-leases.ts) rather than a round trip each.
   */
  shared: boolean;
  /**
   * Adds `by` (one unless given) to the counter and returns its new value. `ttlMs` bounds how long the
   * counter is kept.
   */
  increment: (bucket: string, window: number, ttlMs: number, by?: number) => Promise<number>;
  /** Adds one to each bucket's counter of `window` at once (one round trip); new values in bucket order. */
  incrementMany: (buckets: string[], window: number, ttlMs: number) => Promise<number[]>;
  /**
   * Takes one back from each bucket's counter of `window` (never below 0): what a caller counted up front,
   * before knowing whether it should count, and then found should not (a refund).
   */
  decrementMany: (buckets: string[], window: number) => Promise<void>;
  read: (bucket: string, window: number) => Promise<number>;
  close: () => Promise<void>;
};

export function memoryCounterStore(now: () => number = Date.now): CounterStore {
  const counters = new Map<string, { count: number; expiresAt: number }>();
  const sweep = setInterval(() => {
    const t = now();
    for (const [key, entry] of counters) if (entry.expiresAt <= t) counters.delete(key);
  }, 60_000).unref();
  const increment = (bucket: string, window: number, ttlMs: number, by = 1) => {
    const key = `${bucket}|${window}`;
    const entry = counters.get(key) ?? { count: 0, expiresAt: now() + ttlMs };
    entry.count += by;
    counters.set(key, entry);
    return entry.count;
  };
  return {
    shared: false,
    increment: async (bucket, window, ttlMs, by) => increment(bucket, window, ttlMs, by),
    incrementMany: async (buckets, window, ttlMs) => buckets.map((b) => increment(b, window, ttlMs)),
    decrementMany: async (buckets, window) => {
      for (const bucket of buckets) {
        const entry = counters.get(`${bucket}|${window}`);
        if (entry) entry.count = Math.max(0, entry.count - 1);
      }
    },
    read: async (bucket, window) => counters.get(`${bucket}|${window}`)?.count ?? 0,
    close: async () => clearInterval(sweep),
  };
}

/** Counts kept `ttlMs` from now: the sweep deletes them after that. */
const expiresIn = (ttlMs: number) => sql<string>`now() + make_interval(secs => ${ttlMs / 1000})`;

/**
 * Whether a process has expired counters of its own to sweep: from the moment the first it wrote since its
 * last sweep expires until the last has. A process that counted nothing lately (an API process holding only
 * idle streams) sends no statement; while any process counts, expired rows go.
 */
export function sweepWindow() {
  /** When the earliest counter written and not yet swept expires; null when none is waiting. */
  let from: number | null = null;
  /** When the last counter written expires. */
  let until = 0;
  return {
    wrote: (ttlMs: number, now: number) => {
      from = Math.min(from ?? Number.POSITIVE_INFINITY, now + ttlMs);
      until = Math.max(until, now + ttlMs);
    },
    due: (now: number) => from !== null && now >= from,
    /** A sweep ran at `now`: what had expired is gone; what expires later waits for the next. */
    swept: (now: number) => {
      from = now >= until ? null : now;
    },
  };
}

/** How often a process deletes expired counters. */
const SWEEP_EVERY_MS = 60_000;

/** Statements of counter increments one process has out at once (coalesced-increments.ts). */
const COUNTER_STATEMENTS_IN_FLIGHT = 1;

export function postgresCounterStore(db: Database, onError: (err: unknown) => void): CounterStore {
  // One query builder for the store's life: its statements touch no entity and run outside any transaction,
  // so nothing needs a fresh EntityManager, whose fork was a twentieth of a keyed request's CPU.
  const counters = query<RateLimitTables>(db.em());
  const k = () => counters;
  const sweeps = sweepWindow();
  const write: WriteIncrements = async (rows) => {
    sweeps.wrote(Math.max(...rows.map((row) => row.ttlMs)), Date.now());
    const written = await k()
      .insertInto('rate_limit_counters')
      .values(
        rows.map(({ bucket, window, by, ttlMs }) => ({
          bucket,
          window_start: window,
          count: by,
          expires_at: expiresIn(ttlMs),
        })),
      )
      .onConflict((c) =>
        c
          .columns(['bucket', 'window_start'])
          .doUpdateSet({ count: sql<number>`rate_limit_counters.count + excluded.count` }),
      )
      .returning(['bucket', 'window_start', 'count'])
      .execute();
    return new Map(written.map((row) => [rowKey(row.bucket, Number(row.window_start)), row.count]));
  };
  const increment = coalescedIncrements(write, COUNTER_STATEMENTS_IN_FLIGHT);
  // Expired rows are swept once a minute by whichever process gets there; deleting is idempotent.
  const sweep = setInterval(() => {
    const now = Date.now();
    if (!sweeps.due(now)) return;
    sweeps.swept(now);
    k()
      .deleteFrom('rate_limit_counters')
      .where('expires_at', '<', sql<string>`now()`)
      .execute()
      .catch(onError);
  }, SWEEP_EVERY_MS).unref();
  return {
    shared: true,
    increment,
    incrementMany: (buckets, window, ttlMs) =>
      Promise.all(buckets.map((bucket) => increment(bucket, window, ttlMs))),
    decrementMany: async (buckets, window) => {
      await k()
        .updateTable('rate_limit_counters')
        .set({ count: sql<number>`greatest(rate_limit_counters.count - 1, 0)` })
        .where('bucket', 'in', buckets)
        .where('window_start', '=', window)
        .execute();
    },
    read: async (bucket, window) => {
      const row = await k()
        .selectFrom('rate_limit_counters')
        .select('count')
        .where('bucket', '=', bucket)
        .where('window_start', '=', window)
        .executeTakeFirst();
      return row?.count ?? 0;
    },
    close: async () => clearInterval(sweep),
  };
}
