import { describe, expect, it } from 'vitest';
import { counterLeases, leaseSize } from './counter-leases.ts';
import { type CounterStore, memoryCounterStore } from './counter-store.ts';

const MINUTE = 60_000;

/**
 * One counter table shared by several processes, as PostgreSQL's is: each increment takes a tick to answer,
 * and the table records how many statements reached it.
 */
function sharedTable() {
  const table = memoryCounterStore();
  let statements = 0;
  let failNext = false;
  const store: CounterStore = {
    ...table,
    shared: true,
    increment: async (bucket, window, ttlMs, by) => {
      statements += 1;
      await new Promise((resolve) => setImmediate(resolve));
      if (failNext) {
        failNext = false;
        throw new Error('connection lost');
      }
      return table.increment(bucket, window, ttlMs, by);
    },
    incrementMany: async (buckets, window, ttlMs) => {
      statements += 1;
      await new Promise((resolve) => setImmediate(resolve));
      return Promise.all(buckets.map((bucket) => table.increment(bucket, window, ttlMs)));
    },
  };
  return {
    store,
    statements: () => statements,
    count: (bucket: string, window: number) => table.read(bucket, window),
    failOnce: () => (failNext = true),
  };
}

const requests = (n: number) => Array.from({ length: n }, (_, i) => i);

describe('counter leases', () => {
  it('hand three processes unique numbers for a hot key, a statement per lease, none allowed past the limit', async () => {
    const table = sharedTable();
    const processes = [1, 2, 3].map(() => counterLeases(table.store));
    const limit = 5_000_000;
    const counts = await Promise.all(
      requests(6000).map((i) => processes[i % 3]?.([{ bucket: 'account:hot', limit }], 7, 2 * MINUTE)),
    );
    const numbers = counts.map((c) => c?.[0] ?? 0);
    expect(new Set(numbers).size).toBe(6000);
    expect(Math.max(...numbers)).toBeLessThanOrEqual(6000 + 3 * leaseSize(limit, 0));
    // A lease of 256 units a statement: 6,000 requests in a few dozen, not 6,000.
    expect(table.statements()).toBeLessThanOrEqual(Math.ceil(6000 / 256) + 3);
    // What the shared row holds: every unit handed out, and what the three last leases did not spend.
    const counted = await table.count('account:hot', 7);
    expect(counted).toBeGreaterThanOrEqual(Math.max(...numbers));
    expect(counted - 6000).toBeLessThan(3 * leaseSize(limit, 0));
  });

  it('allow no more than the limit across processes, and leave at most a lease a process unspent', async () => {
    const table = sharedTable();
    const processes = [1, 2, 3].map(() => counterLeases(table.store));
    const limit = 4000;
    const counts = await Promise.all(
      requests(6000).map((i) => processes[i % 3]?.([{ bucket: 'key:k', limit }], 1, 2 * MINUTE)),
    );
    const allowed = counts.filter((c) => (c?.[0] ?? 0) <= limit).length;
    expect(allowed).toBeLessThanOrEqual(limit);
    expect(allowed).toBeGreaterThanOrEqual(limit - 3 * leaseSize(limit, 0));
  });

  it("count every request of a plan's limit on the shared row itself, exact to the unit", async () => {
    const table = sharedTable();
    const [first, second] = [counterLeases(table.store), counterLeases(table.store)];
    const counts = await Promise.all(
      requests(120).map((i) => (i % 2 ? first : second)?.([{ bucket: 'account:a', limit: 120 }], 1, MINUTE)),
    );
    expect(counts.map((c) => c[0]).sort((a = 0, b = 0) => a - b)).toEqual(requests(120).map((i) => i + 1));
    expect(table.statements()).toBe(120);
  });

  it("count a request's exact bucket and its leased one together, each in its own order", async () => {
    const table = sharedTable();
    const count = counterLeases(table.store);
    const buckets = [
      { bucket: 'account:big', limit: 10_000_000 },
      { bucket: 'key:small', limit: 60 },
    ];
    const first = await count(buckets, 3, MINUTE);
    const second = await count(buckets, 3, MINUTE);
    expect([first, second]).toEqual([
      [1, 1],
      [2, 2],
    ]);
    expect(await table.count('key:small', 3)).toBe(2);
    expect(await table.count('account:big', 3)).toBe(leaseSize(10_000_000, 0));
  });

  it('start a fresh lease in the next window', async () => {
    const table = sharedTable();
    const count = counterLeases(table.store);
    const bucket = [{ bucket: 'account:w', limit: 1_000_000 }];
    expect(await count(bucket, 1, MINUTE)).toEqual([1]);
    expect(await count(bucket, 1, MINUTE)).toEqual([2]);
    expect(await count(bucket, 2, MINUTE)).toEqual([1]);
    expect(await table.count('account:w', 2)).toBe(leaseSize(1_000_000, 0));
  });

  it('fail the requests waiting on a reservation that failed, and reserve again for the next', async () => {
    const table = sharedTable();
    const count = counterLeases(table.store);
    const bucket = [{ bucket: 'account:f', limit: 1_000_000 }];
    table.failOnce();
    const waiting = await Promise.allSettled([count(bucket, 1, MINUTE), count(bucket, 1, MINUTE)]);
    expect(waiting.map((w) => w.status)).toEqual(['rejected', 'rejected']);
    expect(await count(bucket, 1, MINUTE)).toEqual([1]);
  });
});
