import type { Clock } from '../shared/clock.ts';
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

/**
 * Fixed one-window counter: cheap (one upsert), and the window boundary is what X-RateLimit-Reset reports.
 * Used per API key per minute.
 */
export async function hitFixedWindow(
  store: CounterStore,
  clock: Clock,
  bucket: string,
  limit: number,
  windowMs: number,
): Promise<LimitDecision> {
  const now = clock.now();
  const window = Math.floor(now / windowMs);
  const count = await store.increment(bucket, window, windowMs * 2);
  const resetMs = (window + 1) * windowMs;
  const allowed = count <= limit;
  return {
    allowed,
    limit,
    remaining: Math.max(0, limit - count),
    resetAt: Math.ceil(resetMs / 1000),
    retryAfter: allowed ? 0 : Math.max(1, Math.ceil((resetMs - now) / 1000)),
  };
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
  // When over, wait until enough of the previous window has slid out (or the current one ends).
  const overBy = estimate - limit;
  const waitMs =
    previous > 0 && overBy <= previous ? (overBy / previous) * windowMs : (window + 1) * windowMs - now;
  return {
    allowed,
    limit,
    remaining: Math.max(0, Math.floor(limit - estimate)),
    resetAt: Math.ceil(((window + 1) * windowMs) / 1000),
    retryAfter: allowed ? 0 : Math.max(1, Math.ceil(waitMs / 1000)),
  };
}
