/**
 * Runs at most `concurrency` tasks at once and queues up to `maxQueued` more; past that, `whenFull()` is
 * thrown at once, so a burst cannot pile up unbounded work (or memory) behind the limit.
 */
export function createConcurrencyLimit(concurrency: number, maxQueued: number, whenFull: () => Error) {
  let active = 0;
  const waiting: (() => void)[] = [];

  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else active -= 1;
  };

  return {
    run: async <T>(task: () => Promise<T>): Promise<T> => {
      if (active < concurrency) active += 1;
      else if (waiting.length >= maxQueued) throw whenFull();
      // The slot passes straight from the task that finishes to the next in line: `active` stays put.
      else await new Promise<void>((resolve) => waiting.push(resolve));
      try {
        return await task();
      } finally {
        release();
      }
    },
    get active() {
      return active;
    },
    get queued() {
      return waiting.length;
    },
  };
}
