/** One counter's share of a batch: `by` increments of (bucket, window), kept `ttlMs`. */
export type CounterRow = { bucket: string; window: number; by: number; ttlMs: number };

/** Writes the rows' increments in one statement; the new count of each row, by rowKey. */
export type WriteIncrements = (rows: CounterRow[]) => Promise<Map<string, number>>;

export const rowKey = (bucket: string, window: number) => `${window}|${bucket}`;

type Waiter = {
  bucket: string;
  window: number;
  /** How many this increment adds (one a request; more for a lease of several). */
  by: number;
  ttlMs: number;
  resolve: (count: number) => void;
  reject: (e: unknown) => void;
};

/**
 * Increments of shared counters, written together: each increment still gets the count it made (the nth
 * of k increments a statement adds to a counter that reached N gets N − k + n), exactly as if each had been
 * its own statement, so a limit decided on it is as exact as before. What changes is the number of round
 * trips: up to `maxInFlight` statements are out at once, and what arrives meanwhile goes in the next one
 * together. Unloaded, each increment is one statement as before; loaded, a statement carries many.
 *
 * Rows are written in key order, so two processes' statements lock the rows they share in the same order
 * and cannot deadlock on them.
 */
export function coalescedIncrements(write: WriteIncrements, maxInFlight: number) {
  let waiting: Waiter[] = [];
  let inFlight = 0;
  let scheduled = false;

  const send = () => {
    scheduled = false;
    if (waiting.length === 0 || inFlight >= maxInFlight) return;
    const batch = waiting;
    waiting = [];
    inFlight += 1;
    const rows = new Map<string, CounterRow & { waiters: Waiter[] }>();
    for (const waiter of batch) {
      const key = rowKey(waiter.bucket, waiter.window);
      const row = rows.get(key) ?? {
        bucket: waiter.bucket,
        window: waiter.window,
        by: 0,
        ttlMs: 0,
        waiters: [],
      };
      row.by += waiter.by;
      row.ttlMs = Math.max(row.ttlMs, waiter.ttlMs);
      row.waiters.push(waiter);
      rows.set(key, row);
    }
    const ordered = [...rows.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, row]) => row);
    write(ordered.map(({ bucket, window, by, ttlMs }) => ({ bucket, window, by, ttlMs })))
      .then(
        (counts) => {
          for (const row of ordered) {
            // Each waiter's share follows the ones before it in the row: the count after its own.
            let reached = (counts.get(rowKey(row.bucket, row.window)) ?? 0) - row.by;
            for (const waiter of row.waiters) {
              reached += waiter.by;
              waiter.resolve(reached);
            }
          }
        },
        (error: unknown) => {
          for (const waiter of batch) waiter.reject(error);
        },
      )
      .finally(() => {
        inFlight -= 1;
        send();
      });
  };

  /** Adds `by` (one unless given) to the counter; resolves with the count this increment made. */
  return (bucket: string, window: number, ttlMs: number, by = 1): Promise<number> =>
    new Promise((resolve, reject) => {
      waiting.push({ bucket, window, by, ttlMs, resolve, reject });
      // Whatever the same tick adds (a request's account and key buckets) goes in one statement.
      if (!scheduled) {
        scheduled = true;
        queueMicrotask(send);
      }
    });
}
