import type { Clock } from '../shared/clock.ts';
import { type CountRequests, countEach } from './counter-leases.ts';
import type { CounterStore } from './counter-store.ts';

export type LimitDecision = {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Unix seconds at which the caller has a fresh allowance. */
  resetAt: number;
  /** Whole seconds to wait before retrying; 0 when allowed. */
  retryAfter: number;
};

/** A fixed-window decision, with the window it was counted in (where a refund must take it back from). */
export type CountedDecision = LimitDecision & { window: number };

/**
 * Fixed one-window counter: cheap (one upsert), and the window boundary is what X-RateLimit-Reset reports.
 */
export async function hitFixedWindow(
  store: CounterStore,
  clock: Clock,
  bucket: string,
  limit: number,
  windowMs: number,
): Promise<CountedDecision> {
  return hitFixedWindows(countEach(store), clock, [{ bucket, limit }], windowMs);
}

/**
 * Counts one request against several fixed-window buckets at once (one round trip) — an account and one of
 * its keys — and answers with the decision of the tightest: a refusal if any refuses, else the bucket with
 * the fewest requests left. All buckets share the window, so they reset together.
 */
export async function hitFixedWindows(
  count: CountRequests,
  clock: Clock,
  buckets: { bucket: string; limit: number }[],
  windowMs: number,
): Promise<CountedDecision> {
  const now = clock.now();
  const window = Math.floor(now / windowMs);
  const counts = await count(buckets, window, windowMs * 2);
  const resetMs = (window + 1) * windowMs;
  const decisions = buckets.map(({ limit }, i): LimitDecision => {
    const allowed = (counts[i] ?? 0) <= limit;
    return {
      allowed,
      limit,
      remaining: Math.max(0, limit - (counts[i] ?? 0)),
      resetAt: Math.ceil(resetMs / 1000),
      retryAfter: allowed ? 0 : Math.max(1, Math.ceil((resetMs - now) / 1000)),
    };
  });
  return { ...decisions.reduce((tightest, d) => (isTighter(d, tightest) ? d : tightest)), window };
}

/** A refusal beats an allowance; then fewer requests left; then the lower limit. */
function isTighter(a: LimitDecision, b: LimitDecision): boolean {
  if (a.allowed !== b.allowed) return !a.allowed;
  if (a.remaining !== b.remaining) return a.remaining < b.remaining;
  return a.limit < b.limit;
}

/**
 * Sliding-window counter: the previous window's count weighted by how much of it still overlaps the last
 * `windowMs`, plus the current window. Smooths the burst a fixed window allows at its boundary. Used per IP
 * on public endpoints.
 */
export async function hitSlidingWindow(
  store: CounterStore,
  clock: Clock,
  bucket: string,
  limit: number,
  windowMs: number,
): Promise<LimitDecision> {
  const now = clock.now();
  const window = Math.floor(now / windowMs);
  const elapsed = (now - window * windowMs) / windowMs;
  const [current, previous] = await Promise.all([
    store.increment(bucket, window, windowMs * 2),
    store.read(bucket, window - 1),
  ]);
  const estimate = previous * (1 - elapsed) + current;
  const allowed = estimate <= limit;
  const windowEnd = (window + 1) * windowMs;
  return {
    allowed,
    limit,
    remaining: Math.max(0, Math.floor(limit - estimate)),
    resetAt: Math.ceil(windowEnd / 1000),
    retryAfter: allowed
      ? 0
      : Math.max(
          1,
          Math.ceil(slidingWait(previous, current, limit, elapsed, windowMs, windowEnd - now) / 1000),
        ),
  };
}

/**
 * Milliseconds until one more request fits, counting that request itself. Within this window the previous
 * window's weight must fall far enough; if even an empty previous window would not make room, wait for the
 * next window, where this window's count becomes the weighted one.
 */
function slidingWait(
  previous: number,
  current: number,
  limit: number,
  elapsed: number,
  windowMs: number,
  untilWindowEnd: number,
): number {
  const room = limit - current - 1;
  if (room >= 0 && previous > 0) return Math.max(0, (1 - room / previous - elapsed) * windowMs);
  const fractionIntoNext = current > 0 ? Math.max(0, 1 - (limit - 1) / current) : 0;
  return untilWindowEnd + fractionIntoNext * windowMs;
}
