/** A lane of waiting tasks: served before every lane after it, and refusing work past `maxQueued`. */
export type Lane = { maxQueued: number };

/**
 * Runs at most `concurrency` tasks at once. Tasks that must wait queue in their lane; a freed slot goes to
 * the first lane with someone waiting, so a flood in a later lane never delays an earlier one by more than
 * the tasks already running. Past a lane's `maxQueued`, `whenFull()` is thrown at once, so a burst cannot
 * pile up unbounded work (or memory) behind the limit.
 */
export function createConcurrencyLimit<L extends string>(
  concurrency: number,
  lanes: Record<L, Lane>,
  whenFull: () => Error,
) {
  let active = 0;
  const order = Object.keys(lanes) as L[];
  const waiting = Object.fromEntries(order.map((lane) => [lane, [] as (() => void)[]])) as Record<
    L,
    (() => void)[]
  >;

  const release = () => {
    const next = order
      .map((lane) => waiting[lane])
      .find((queue) => queue.length > 0)
      ?.shift();
    if (next) next();
    else active -= 1;
  };

  return {
    run: async <T>(lane: L, task: () => Promise<T>): Promise<T> => {
      if (active < concurrency) active += 1;
      else if (waiting[lane].length >= lanes[lane].maxQueued) throw whenFull();
      // The slot passes straight from the task that finishes to the next in line: `active` stays put.
      else await new Promise<void>((resolve) => waiting[lane].push(resolve));
      try {
        return await task();
      } finally {
        release();
      }
    },
    get active() {
      return active;
    },
    queued: (lane: L) => waiting[lane].length,
  };
}
