import { describe, expect, it } from 'vitest';
import { counterLeases, leaseSize, SMALLEST_LEASE } from './counter-leases.ts';
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
  let throwNext = false;
  const store: CounterStore = {
    ...table,
    shared: true,
    increment: (bucket, window, ttlMs, by) => {
      if (throwNext) {
        throwNext = false;
        throw new Error('the pool is closed');
      }
      statements += 1;
      return new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
        if (failNext) {
          failNext = false;
          throw new Error('connection lost');
        }
        return table.increment(bucket, window, ttlMs, by);
      });
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
    throwAtOnceOnce: () => (throwNext = true),
  };
}

const requests = (n: number) => Array.from({ length: n }, (_, i) => i);

/** `n` requests at once on one bucket, spread over three processes sharing `table`: the unit each got. */
async function fromThreeProcesses(
  table: ReturnType<typeof sharedTable>,
  n: number,
  bucket: string,
  limit: number,
) {
  const processes = [1, 2, 3].map(() => counterLeases(table.store));
  const counts = await Promise.all(
    requests(n).map((i) => processes[i % 3]?.([{ bucket, limit }], 7, 2 * MINUTE)),
  );
  return counts.map((c) => c?.[0] ?? 0);
}

describe('counter leases', () => {
  it('hand three processes unique numbers for a hot key, a statement per lease, none allowed past the limit', async () => {
    const table = sharedTable();
    const limit = 5_000_000;
    const numbers = await fromThreeProcesses(table, 6000, 'account:hot', limit);
    expect(new Set(numbers).size).toBe(6000);
    expect(Math.max(...numbers)).toBeLessThanOrEqual(6000 + 3 * leaseSize(limit, 0));
    // Each statement reserves a unit per waiting request and 256 spare: 6,000 requests in a few, not 6,000.
    expect(table.statements()).toBeLessThanOrEqual(Math.ceil(6000 / 256) + 3);
    // What the shared row holds: every unit handed out, and what the three last leases did not spend.
    const counted = await table.count('account:hot', 7);
    expect(counted).toBeGreaterThanOrEqual(Math.max(...numbers));
    expect(counted - 6000).toBeLessThanOrEqual(3 * leaseSize(limit, 0));
  });

  it('allow no more than the limit across processes, and leave at most a lease a process unspent', async () => {
    const limit = 40_000;
    const numbers = await fromThreeProcesses(sharedTable(), 60_000, 'key:k', limit);
    const allowed = numbers.filter((n) => n <= limit).length;
    expect(allowed).toBeLessThanOrEqual(limit);
    expect(allowed).toBeGreaterThanOrEqual(limit - 3 * leaseSize(limit, 0));
  });

  it('count a flood near and past the limit in a few statements, every waiting request in each', async () => {
    const table = sharedTable();
    const count = counterLeases(table.store);
    const limit = 20_000;
    expect(leaseSize(limit, 0)).toBeGreaterThanOrEqual(SMALLEST_LEASE);
    const counts = await Promise.all(
      requests(25_000).map(() => count([{ bucket: 'account:flood', limit }], 1, MINUTE)),
    );
    const numbers = counts.map((c) => c[0] ?? 0);
    // One process spends every unit it leased: exactly the limit allowed, each number once.
    expect(numbers.filter((n) => n <= limit)).toHaveLength(limit);
    expect(new Set(numbers).size).toBe(25_000);
    // Each reservation counted every request waiting: a few statements, not one per request or per lease.
    expect(table.statements()).toBeLessThan(10);
  });

  it('recover from a store that threw at once: the next request reserves again', async () => {
    const table = sharedTable();
    const count = counterLeases(table.store);
    const bucket = [{ bucket: 'account:t', limit: 1_000_000 }];
    table.throwAtOnceOnce();
    await expect(count(bucket, 1, MINUTE)).rejects.toThrow('the pool is closed');
    expect(await count(bucket, 1, MINUTE)).toEqual([1]);
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
    // The first request's unit and a lease of spare ones.
    expect(await table.count('account:big', 3)).toBe(1 + leaseSize(10_000_000, 0));
  });

  it('start a fresh lease in the next window', async () => {
    const table = sharedTable();
    const count = counterLeases(table.store);
    const bucket = [{ bucket: 'account:w', limit: 1_000_000 }];
    expect(await count(bucket, 1, MINUTE)).toEqual([1]);
    expect(await count(bucket, 1, MINUTE)).toEqual([2]);
    expect(await count(bucket, 2, MINUTE)).toEqual([1]);
    expect(await table.count('account:w', 2)).toBe(1 + leaseSize(1_000_000, 0));
  });

  it('fail the requests a failed reservation counted; those that came meanwhile reserve again', async () => {
    const table = sharedTable();
    const count = counterLeases(table.store);
    const bucket = [{ bucket: 'account:f', limit: 1_000_000 }];
    table.failOnce();
    const first = Promise.allSettled([count(bucket, 1, MINUTE)]);
    // Arrives while the first's reservation is out: it waits for that one, then reserves on its own.
    await Promise.resolve();
    const second = count(bucket, 1, MINUTE);
    expect((await first).map((each) => each.status)).toEqual(['rejected']);
    expect(await second).toEqual([1]);
    expect(await count(bucket, 1, MINUTE)).toEqual([2]);
  });
});
