import type { CounterStore } from './counter-store.ts';

/** Counts one request against each bucket of `window`: the count each reached, in bucket order. */
export type CountRequests = (
  buckets: { bucket: string; limit: number }[],
  window: number,
  ttlMs: number,
) => Promise<number[]>;

/** Each request its own count on the store: one round trip for all of a request's buckets. */
export const countEach =
  (store: CounterStore): CountRequests =>
  (buckets, window, ttlMs) =>
    store.incrementMany(
      buckets.map(({ bucket }) => bucket),
      window,
      ttlMs,
    );

/** A lease's spare units are at most this share of what was left of its limit when it was taken. */
const LEASE_SHARE = 1 / 1000;
/** Spare units one lease holds at most: a hot key's requests then cost a statement per this many. */
const LARGEST_LEASE = 256;
/** A bucket is counted by leases only when its lease would hold at least this many spare units. */
export const SMALLEST_LEASE = 16;

/**
 * Spare units a reservation takes once `counted` of `limit` are known to be spent: a thousandth of what is
 * left, at most LARGEST_LEASE, none near the limit or past it.
 */
export const leaseSize = (limit: number, counted: number) =>
  Math.min(LARGEST_LEASE, Math.max(0, Math.floor((limit - counted) * LEASE_SHARE)));

type Waiter = { resolve: (unit: number) => void; reject: (error: unknown) => void };

/**
 * Units of one bucket's window this process reserved, `next` to `last`, numbered by the shared counter (`last`
 * is also the highest count this process has seen the row reach: request counts only grow); the requests
 * waiting for a unit.
 */
type Lease = { window: number; next: number; last: number; waiting: Waiter[]; reserving: boolean };

/**
 * Counts requests against shared counters, a lease of units at a time for a bucket whose limit is far from
 * reached. A reservation adds to the shared counter, in one statement, a unit for each request waiting and a
 * lease of spare units; the process hands them out numbered as the counter numbered them, the spare ones to
 * the requests that come next without a round trip each. A request is allowed when its unit's number is
 * within the limit, so however many processes lease, no more than the limit are ever allowed in a window.
 * What a lease costs is the other way: spare units a process did not spend before its window ended count as
 * spent. Only a process's last lease of a window can be left so, and each is under a thousandth of what was
 * left of the limit, so a process leaves unused at most a thousandth of the limit a window. Near the limit
 * and past it a reservation has no spare units: it counts the requests waiting, all in one statement, as
 * counting each on the row would. Plans' limits (tens a minute) never lease; a custom limit of millions a
 * minute does, and its hot key's requests stop waiting a statement each.
 */
export function counterLeases(store: CounterStore): CountRequests {
  if (!store.shared) return countEach(store);
  const leases = new Map<string, Lease>();
  let sweptWindow = Number.NEGATIVE_INFINITY;

  /** Reserves a unit for each waiting request and the spare lease, then hands them out in order. */
  const reserve = (bucket: string, lease: Lease, limit: number, ttlMs: number) => {
    const waiting = lease.waiting;
    lease.waiting = [];
    lease.reserving = true;
    const spare = leaseSize(limit, lease.last);
    const size = waiting.length + spare;
    let reserved: Promise<number>;
    try {
      reserved = store.increment(bucket, lease.window, ttlMs, size);
    } catch (error) {
      reserved = Promise.reject(error);
    }
    reserved.then(
      (reached) => {
        lease.reserving = false;
        lease.next = reached - size + 1;
        lease.last = reached;
        // Those it was made for first, then what arrived meanwhile takes the spare units, and reserves again
        // if they were not enough.
        const served = [...waiting, ...lease.waiting.splice(0, spare)];
        for (const waiter of served) waiter.resolve(lease.next++);
        if (lease.waiting.length > 0) reserve(bucket, lease, limit, ttlMs);
      },
      (error: unknown) => {
        lease.reserving = false;
        for (const waiter of waiting) waiter.reject(error);
        // Those that arrived meanwhile try again.
        if (lease.waiting.length > 0) reserve(bucket, lease, limit, ttlMs);
      },
    );
  };

  const take = (bucket: string, limit: number, window: number, ttlMs: number): Promise<number> => {
    let lease = leases.get(bucket);
    // A request of a window before the lease's (the clock stepped back) is counted where it belongs.
    if (lease && lease.window > window) return store.increment(bucket, window, ttlMs);
    if (lease?.window !== window) {
      lease = { window, next: 1, last: 0, waiting: [], reserving: false };
      leases.set(bucket, lease);
    }
    if (lease.next <= lease.last) return Promise.resolve(lease.next++);
    const own = lease;
    return new Promise((resolve, reject) => {
      own.waiting.push({ resolve, reject });
      if (!own.reserving) reserve(bucket, own, limit, ttlMs);
    });
  };

  /** Once a window, what earlier windows leased goes: their units can no longer be spent. */
  const sweep = (window: number) => {
    if (window <= sweptWindow) return;
    sweptWindow = window;
    for (const [bucket, lease] of leases) if (lease.window < window) leases.delete(bucket);
  };

  // A bucket too small to lease is counted on the row; the store puts what one request counts, leased or not,
  // in one statement (coalesced-increments.ts).
  return (buckets, window, ttlMs) => {
    sweep(window);
    return Promise.all(
      buckets.map(({ bucket, limit }) =>
        leases.has(bucket) || leaseSize(limit, 0) >= SMALLEST_LEASE
          ? take(bucket, limit, window, ttlMs)
          : store.increment(bucket, window, ttlMs),
      ),
    );
  };
}
