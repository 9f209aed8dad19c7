import { describe, expect, it } from 'vitest';
import { createBatchedCounter } from './batched-counter.ts';

/** A store the counter writes to: a map of totals, and a switch that makes the next writes fail. */
function totals() {
  const stored = new Map<string, number>();
  let failing = false;
  let writing = 0;
  let overlapped = false;
  return {
    stored,
    failWrites: (on: boolean) => {
      failing = on;
    },
    overlapped: () => overlapped,
    write: async (batch: { key: string; n: number }[]) => {
      writing += 1;
      if (writing > 1) overlapped = true;
      await new Promise((resolve) => setTimeout(resolve, 5));
      writing -= 1;
      if (failing) throw new Error('store unavailable');
      for (const { key, n } of batch) stored.set(key, (stored.get(key) ?? 0) + n);
    },
  };
}

/** A counter of string keys written only when the test flushes it (or closes it). */
const counterOf = (
  write: (batch: { key: string; n: number }[]) => Promise<void>,
  onError: (error: unknown) => void = () => {},
) => createBatchedCounter<string>({ identify: (key) => key, write, onError, intervalMs: 60_000 });

describe('batched counter', () => {
  it('adds counts of the same key up and writes them as one entry of one batch', async () => {
    const store = totals();
    const batches: number[] = [];
    const counter = counterOf((batch) => {
      batches.push(batch.length);
      return store.write(batch);
    });
    for (let i = 0; i < 5; i++) counter.add('a');
    expect(counter.add('b', 3)).toBe(3);
    await counter.close();
    expect(batches).toEqual([2]);
    expect(Object.fromEntries(store.stored)).toEqual({ a: 5, b: 3 });
  });

  it('keeps the counts of a failed write, with those added meanwhile, for the next write', async () => {
    const store = totals();
    const errors: unknown[] = [];
    const counter = counterOf(store.write, (error) => errors.push(error));
    counter.add('a', 2);
    store.failWrites(true);
    const failed = counter.flush();
    counter.add('a'); // while the failing write is in flight
    await failed;
    expect(errors).toHaveLength(1);
    expect([...counter.unwritten()]).toEqual([{ key: 'a', n: 3 }]);
    store.failWrites(false);
    await counter.flush();
    expect(store.stored.get('a')).toBe(3);
    expect([...counter.unwritten()]).toEqual([]);
    await counter.close();
  });

  it('never starts a write before the previous one has settled', async () => {
    const store = totals();
    const counter = counterOf(store.write);
    const flushes = [];
    for (let i = 0; i < 10; i++) {
      counter.add(`k${i % 3}`);
      flushes.push(counter.flush());
    }
    await Promise.all(flushes);
    expect(store.overlapped()).toBe(false);
    expect([...store.stored.values()].reduce((a, b) => a + b, 0)).toBe(10);
    await counter.close();
  });

  it('lets a reader that adds the unwritten counts to the stored ones count every event once, while writes run', async () => {
    const store = totals();
    const counter = counterOf(store.write);
    const seen: number[] = [];
    const reads = [];
    for (let i = 0; i < 40; i++) {
      if (i % 5 === 0) void counter.flush();
      reads.push(
        counter.betweenWrites(async () => {
          const stored = store.stored.get('link') ?? 0;
          await new Promise((resolve) => setTimeout(resolve, 1)); // the query's round trip
          return stored + counter.add('link');
        }),
      );
    }
    seen.push(...(await Promise.all(reads)));
    // Every read saw all the views before it and its own: 40 distinct totals, 1 to 40.
    expect([...seen].sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    await counter.close();
    expect(store.stored.get('link')).toBe(40);
  });

  it('runs readers side by side, and never a reader beside a write', async () => {
    let writes = 0;
    let readersNow = 0;
    let mostReaders = 0;
    let overlap = false;
    const counter = counterOf(async () => {
      writes += 1;
      if (readersNow > 0) overlap = true;
      await new Promise((resolve) => setTimeout(resolve, 5));
      writes -= 1;
    });
    const read = () =>
      counter.betweenWrites(async () => {
        if (writes > 0) overlap = true;
        readersNow += 1;
        mostReaders = Math.max(mostReaders, readersNow);
        await new Promise((resolve) => setTimeout(resolve, 5));
        readersNow -= 1;
      });
    counter.add('a');
    const first = [read(), read(), counter.flush(), read()];
    counter.add('b');
    await Promise.all([...first, counter.flush(), read()]);
    expect(overlap).toBe(false);
    expect(mostReaders).toBeGreaterThan(1);
    await counter.close();
  });
});
