/**
 * Counts added up in memory and written in batches, so a hot counter costs no database write per event:
 * the views of shared debates, the requests of API keys.
 *
 * - `write` receives every count added since the last batch, and writes them in one statement.
 * - A batch is written every `intervalMs` and on `close` (a clean stop loses nothing).
 * - A failed write puts its counts back, to go with the next batch: nothing is lost while the database is
 *   away, only delayed. A crash loses what was not yet written (at most one interval's counts).
 * - Writes never overlap: a batch starts once the previous one has settled.
 */
export type BatchedCounter<K> = {
  /** Adds `n` (default 1) to `key`'s count; returns its unwritten count. */
  add: (key: K, n?: number) => number;
  /** The counts not yet handed to a write. */
  unwritten: () => Iterable<{ key: K; n: number }>;
  /**
   * Runs `read` while no batch is being written, so a reader that adds `unwritten()` (taken after its own
   * query) to what it read from the database counts every event exactly once.
   */
  betweenWrites: <T>(read: () => Promise<T>) => Promise<T>;
  /** Writes the counts added so far. */
  flush: () => Promise<void>;
  /** Stops the timer and writes what is left. */
  close: () => Promise<void>;
};

export type BatchedCounterOptions<K> = {
  /** The identity of a key, for adding up (keys with the same identity share a count). */
  identify: (key: K) => string;
  write: (batch: { key: K; n: number }[]) => Promise<void>;
  onError: (error: unknown) => void;
  intervalMs?: number;
};

export function createBatchedCounter<K>(options: BatchedCounterOptions<K>): BatchedCounter<K> {
  const { identify, write, onError } = options;
  let counts = new Map<string, { key: K; n: number }>();
  // The chain of writes (and reads between them): each link starts when the previous one settled.
  let chain: Promise<unknown> = Promise.resolve();

  const add = (key: K, n = 1) => {
    const id = identify(key);
    const entry = counts.get(id);
    if (entry) {
      entry.n += n;
      return entry.n;
    }
    counts.set(id, { key, n });
    return n;
  };

  const flush = () => {
    const written = chain.then(async () => {
      const batch = counts;
      if (batch.size === 0) return;
      counts = new Map();
      try {
        await write([...batch.values()]);
      } catch (error) {
        // Put them back: the next batch carries them.
        for (const { key, n } of batch.values()) add(key, n);
        onError(error);
      }
    });
    chain = written;
    return written;
  };

  const timer = setInterval(() => void flush(), options.intervalMs ?? 1000);
  timer.unref();

  return {
    add,
    unwritten: () => counts.values(),
    betweenWrites: <T>(read: () => Promise<T>) => {
      const result = chain.then(read);
      // A failed read must not fail the writes queued after it.
      chain = result.catch(() => {});
      return result;
    },
    flush,
    close: async () => {
      clearInterval(timer);
      await flush();
    },
  };
}
