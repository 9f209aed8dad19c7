import { PLAN_RATE_LIMITS, type Plan } from '@verdict/contracts';
import { AppError } from '../shared/app-error.ts';
import type { Clock } from '../shared/clock.ts';
import type { CounterStore } from './counter-store.ts';
import { hitFixedWindow, hitSlidingWindow, type LimitDecision } from './limiters.ts';

const MINUTE = 60_000;

export const PUBLIC_IP_LIMIT = { limit: 30, windowMs: 60_000 };
/** Failed logins allowed before further attempts are refused for the rest of the window. */
export const LOGIN_FAILURE_LIMITS = { perEmail: 10, perIp: 50, windowMs: 15 * MINUTE };

export type RateLimits = ReturnType<typeof createRateLimits>;

export function createRateLimits(store: CounterStore, clock: Clock) {
  return {
    /** Per key per minute: the key's own rateLimit, else its owner's plan default. */
    hitKey: (keyId: string, plan: Plan, keyRateLimit: number | null) =>
      hitFixedWindow(store, clock, `key:${keyId}`, keyRateLimit ?? PLAN_RATE_LIMITS[plan], MINUTE),

    /** Per client IP, sliding window; for unauthenticated public endpoints. */
    hitPublicIp: (ip: string) =>
      hitSlidingWindow(store, clock, `ip:${ip}`, PUBLIC_IP_LIMIT.limit, PUBLIC_IP_LIMIT.windowMs),

    /** Throws RATE_LIMITED when too many logins failed lately for this email or from this IP. */
    assertLoginAllowed: async (email: string, ip: string) => {
      const window = Math.floor(clock.now() / LOGIN_FAILURE_LIMITS.windowMs);
      const [byEmail, byIp] = await Promise.all([
        store.read(`login-email:${email}`, window),
        store.read(`login-ip:${ip}`, window),
      ]);
      if (byEmail >= LOGIN_FAILURE_LIMITS.perEmail || byIp >= LOGIN_FAILURE_LIMITS.perIp) {
        const retryAfter = Math.ceil(((window + 1) * LOGIN_FAILURE_LIMITS.windowMs - clock.now()) / 1000);
        throw new AppError('RATE_LIMITED', 'Too many failed sign-in attempts; try again later', {
          headers: { 'Retry-After': String(retryAfter) },
          extra: { retryAfter },
        });
      }
    },

    recordLoginFailure: async (email: string, ip: string) => {
      const { windowMs } = LOGIN_FAILURE_LIMITS;
      const window = Math.floor(clock.now() / windowMs);
      await Promise.all([
        store.increment(`login-email:${email}`, window, windowMs),
        store.increment(`login-ip:${ip}`, window, windowMs),
      ]);
    },
  };
}

/** The X-RateLimit-* headers of a decision, sent on every keyed response. */
export function rateLimitHeaders(decision: LimitDecision): Record<string, string> {
  return {
    'X-RateLimit-Limit': String(decision.limit),
    'X-RateLimit-Remaining': String(decision.remaining),
    'X-RateLimit-Reset': String(decision.resetAt),
  };
}

/** The 429 for a refused decision, with Retry-After. */
export function rateLimitedError(decision: LimitDecision): AppError {
  return new AppError('RATE_LIMITED', `Rate limit of ${decision.limit} requests exceeded; retry later`, {
    headers: { ...rateLimitHeaders(decision), 'Retry-After': String(decision.retryAfter) },
    extra: { retryAfter: decision.retryAfter },
  });
}
