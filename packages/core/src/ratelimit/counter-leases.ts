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

/** A lease holds at most this share of what was left of its limit when it was taken. */
const LEASE_SHARE = 1 / 1000;
/** Units one lease holds at most: a hot key's requests then cost a statement per this many. */
const LARGEST_LEASE = 256;

/**
 * How many units one reservation takes once `counted` of `limit` are known to be spent: one — each request
 * its own round trip, exact to the unit, as every plan's limit is — unless a thousandth of what is left is
 * more than that.
 */
export const leaseSize = (limit: number, counted: number) =>
  Math.min(LARGEST_LEASE, Math.max(1, Math.floor((limit - counted) * LEASE_SHARE)));

/** Units of one bucket's window this process reserved: `next` to `last`, numbered by the shared counter. */
type Lease = { window: number; next: number; last: number; refill: Promise<void> | null };

/**
 * Counts requests against shared counters, a lease of units at a time for a bucket whose limit is far from
 * reached. A reservation adds the lease's size to the shared counter in one statement; the process then hands
 * out the units it reserved, numbered as the counter numbered them, without a round trip each. A request is
 * allowed when its unit's number is within the limit, so however many processes lease, no more than the limit
 * are ever allowed in a window. What a lease costs is the other way: units a process reserved and did not
 * spend before its window ended count as spent. Only a process's last lease of a window can be left so, and
 * each is under a thousandth of what was left of the limit, so a process leaves unused at most a thousandth
 * of the limit a window. Plans' limits (tens a minute) never lease; a custom limit of millions a minute does,
 * and its hot key's requests stop queueing on one shared row.
 */
export function counterLeases(store: CounterStore): CountRequests {
  if (!store.shared) return countEach(store);
  const exact = countEach(store);
  const leases = new Map<string, Lease>();
  let sweptWindow = Number.NEGATIVE_INFINITY;

  const refill = async (bucket: string, lease: Lease, limit: number, ttlMs: number) => {
    try {
      const size = leaseSize(limit, lease.last);
      const reached = await store.increment(bucket, lease.window, ttlMs, size);
      lease.next = reached - size + 1;
      lease.last = reached;
    } finally {
      lease.refill = null;
    }
  };

  const take = async (bucket: string, limit: number, window: number, ttlMs: number) => {
    let lease = leases.get(bucket);
    if (lease?.window !== window) {
      lease = { window, next: 1, last: 0, refill: null };
      leases.set(bucket, lease);
    }
    // Those that arrive while a reservation is out wait for it; whoever finds it spent reserves the next.
    while (lease.next > lease.last) {
      lease.refill ??= refill(bucket, lease, limit, ttlMs);
      await lease.refill;
    }
    return lease.next++;
  };

  /** Once a window, what earlier windows leased goes: their units can no longer be spent. */
  const sweep = (window: number) => {
    if (window <= sweptWindow) return;
    sweptWindow = window;
    for (const [bucket, lease] of leases) if (lease.window < window) leases.delete(bucket);
  };

  return async (buckets, window, ttlMs) => {
    sweep(window);
    const leased = buckets.map(({ bucket, limit }) => leases.has(bucket) || leaseSize(limit, 0) > 1);
    if (!leased.includes(true)) return exact(buckets, window, ttlMs);
    const unleased = buckets.filter((_, i) => !leased[i]);
    const exactCounts = unleased.length > 0 ? exact(unleased, window, ttlMs) : Promise.resolve([]);
    const leasedCounts = Promise.all(
      buckets.map(({ bucket, limit }, i) => (leased[i] ? take(bucket, limit, window, ttlMs) : 0)),
    );
    const [fromStore, fromLeases] = await Promise.all([exactCounts, leasedCounts]);
    let nextExact = 0;
    return buckets.map((_, i) => (leased[i] ? (fromLeases[i] ?? 0) : (fromStore[nextExact++] ?? 0)));
  };
}
