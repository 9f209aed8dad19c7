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
   * Runs `read` while no batch is being written, so a reader that adds `unwritten()` (or `add`'s answer),
   * taken after its own query, to what it read from the database counts every event exactly once: a batch
   * in flight would be in neither. Readers run side by side; a write waits for those running, and readers
   * that come while a write waits or runs wait for it (so a steady stream of reads never starves writes).
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
  // The chain of writes: each starts when the previous one settled.
  let chain: Promise<unknown> = Promise.resolve();
  /** A write waiting for the readers to finish, or running: readers that come now wait for it. */
  let writing: Promise<void> | null = null;
  let readers = 0;
  let lastReaderLeft: (() => void) | null = null;

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

  const writeBatch = async () => {
    if (counts.size === 0) return;
    let done = () => {};
    writing = new Promise<void>((resolve) => {
      done = resolve;
    });
    try {
      while (readers > 0) {
        await new Promise<void>((resolve) => {
          lastReaderLeft = resolve;
        });
      }
      const batch = counts;
      counts = new Map();
      try {
        await write([...batch.values()]);
      } catch (error) {
        // Put them back: the next batch carries them.
        for (const { key, n } of batch.values()) add(key, n);
        onError(error);
      }
    } finally {
      writing = null;
      done();
    }
  };

  const flush = () => {
    const written = chain.then(writeBatch);
    chain = written;
    return written;
  };

  const timer = setInterval(() => void flush(), options.intervalMs ?? 1000);
  timer.unref();

  return {
    add,
    unwritten: () => counts.values(),
    betweenWrites: async <T>(read: () => Promise<T>) => {
      while (writing) await writing;
      readers += 1;
      try {
        return await read();
      } finally {
        readers -= 1;
        if (readers === 0) {
          lastReaderLeft?.();
          lastReaderLeft = null;
        }
      }
    },
    flush,
    close: async () => {
      clearInterval(timer);
      await flush();
    },
  };
}
