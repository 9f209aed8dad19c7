import { PLAN_RATE_LIMITS, type Plan, type RateBudget } from '@verdict/contracts';
import { AppError } from '../shared/app-error.ts';
import type { Clock } from '../shared/clock.ts';
import { counterLeases } from './counter-leases.ts';
import type { CounterStore } from './counter-store.ts';
import { hitFixedWindow, hitFixedWindows, hitSlidingWindow, type LimitDecision } from './limiters.ts';
import { startLoginAttempt } from './login-attempts.ts';
import { noteLimitRefusal } from './refusals.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

export const PUBLIC_IP_LIMIT = { limit: 30, windowMs: 60_000 };
/**
 * Anonymous reads of public resources (collections, votes, polls, comments) per client IP: the spec leaves
 * the number open; a page that shows a public debate reads a few of them at once, so more than the token
 * endpoint's 30.
 */
export const ANONYMOUS_READ_LIMIT = { limit: 120, windowMs: 60_000 };
export { LOGIN_FAILURE_LIMITS } from './login-attempts.ts';

/** The per-minute request limit of an account: the operator's override, else its plan's. */
export const accountRateLimit = (plan: Plan, override: number | null | undefined): number =>
  override ?? PLAN_RATE_LIMITS[plan];

/**
 * A key's per-minute request limit: its own `rateLimit` when set (which can only lower its account's), else
 * its account's. What X-RateLimit-Limit reports for the key while its own bucket is the tightest, and what
 * GET /v1/usage reports.
 */
export const keyRateLimit = (accountLimit: number, keyLimit: number | null | undefined): number =>
  keyLimit == null ? accountLimit : Math.min(keyLimit, accountLimit);

/**
 * Who a request counts against. A keyed request counts against its account, whichever of its keys sent it;
 * a key with a `rateLimit` of its own is also held to that (it can only lower the account's limit). The
 * spec's limits are the keys'; requests of the account's dashboard sessions (`session`) have a budget of
 * their own, so that using the web console spends none of what the keys may do, and the reverse.
 */
export type RequestPrincipal = {
  userId: string;
  /** The account's effective limit (accountRateLimit). */
  accountLimit: number;
  keyId?: string | undefined;
  keyLimit?: number | null | undefined;
  session?: boolean;
};

export type RateLimitSettings = {
  /** Registrations one client IP may attempt per hour. */
  registrationsPerHour: number;
  /** Debate streams one account may open per minute, counted apart from its requests. */
  streamOpensPerMinute: number;
  /**
   * Requests of one account's dashboard sessions per minute; an account whose own limit is higher (a plan,
   * an operator's override) keeps that.
   */
  sessionRequestsPerMinute: number;
  /** Public link reads one client IP may make per sliding minute (PUBLIC_IP_LIMIT unless configured). */
  publicReadsPerMinute?: number;
};

export type RateLimits = ReturnType<typeof createRateLimits>;

export function createRateLimits(store: CounterStore, clock: Clock, settings: RateLimitSettings) {
  // Requests are counted a lease at a time where a limit is far from reached (counter-leases.ts); the other
  // budgets stay exact, and the ones with refunds must (a refund gives back one count of the shared row).
  const countRequests = counterLeases(store);
  return {
    /** One authenticated request: the account's bucket, and the key's when it sets a lower limit. */
    hitRequest: async (principal: RequestPrincipal): Promise<BudgetDecision> => {
      if (principal.session) {
        const limit = Math.max(principal.accountLimit, settings.sessionRequestsPerMinute);
        const bucket = { bucket: `session:${principal.userId}`, limit };
        return { ...(await hitFixedWindows(countRequests, clock, [bucket], MINUTE)), budget: 'requests' };
      }
      const buckets = [{ bucket: `account:${principal.userId}`, limit: principal.accountLimit }];
      const keyLimit = keyRateLimit(principal.accountLimit, principal.keyLimit);
      if (principal.keyId && keyLimit < principal.accountLimit) {
        buckets.push({ bucket: `key:${principal.keyId}`, limit: keyLimit });
      }
      return { ...(await hitFixedWindows(countRequests, clock, buckets, MINUTE)), budget: 'requests' };
    },

    /**
     * Opening (or resuming) a debate stream. Streams have a budget of their own, so a client that spent its
     * request budget can still reconnect to a stream it was reading: EventSource treats a 429 as fatal.
     * `refund` gives the open back, for an answer that turns out not to stream (a 204 for a finished debate).
     */
    hitStreamOpen: async (userId: string): Promise<BudgetDecision & { refund: () => Promise<void> }> => {
      const bucket = `streams:${userId}`;
      const decision = await hitFixedWindow(store, clock, bucket, settings.streamOpensPerMinute, MINUTE);
      return {
        ...decision,
        budget: 'streamOpens',
        refund: () => store.decrementMany([bucket], decision.window),
      };
    },

    /** Per client IP, sliding window; for unauthenticated public endpoints. */
    hitPublicIp: async (ip: string): Promise<BudgetDecision> => ({
      ...(await hitSlidingWindow(
        store,
        clock,
        `ip:${ip}`,
        settings.publicReadsPerMinute ?? PUBLIC_IP_LIMIT.limit,
        PUBLIC_IP_LIMIT.windowMs,
      )),
      budget: 'publicReads',
    }),

    /** An anonymous read of a public resource from this client IP (ANONYMOUS_READ_LIMIT). */
    hitAnonymousRead: async (ip: string): Promise<BudgetDecision> => ({
      ...(await hitSlidingWindow(
        store,
        clock,
        `anonymous-ip:${ip}`,
        ANONYMOUS_READ_LIMIT.limit,
        ANONYMOUS_READ_LIMIT.windowMs,
      )),
      budget: 'anonymousReads',
    }),

    /** One registration attempt from this client IP: `registrationsPerHour` per sliding hour. */
    hitRegistration: async (ip: string): Promise<BudgetDecision> => ({
      ...(await hitSlidingWindow(store, clock, `register-ip:${ip}`, settings.registrationsPerHour, HOUR)),
      budget: 'signUps',
    }),

    startLoginAttempt: startLoginAttempt(store, clock),
  };
}

/** The X-RateLimit-* headers of a decision, sent on every limited response. */
export function rateLimitHeaders(decision: LimitDecision): Record<string, string> {
  return {
    'X-RateLimit-Limit': String(decision.limit),
    'X-RateLimit-Remaining': String(decision.remaining),
    'X-RateLimit-Reset': String(decision.resetAt),
  };
}

/** A limiter's decision and the budget it counted against, which a 429 names. */
export type BudgetDecision = LimitDecision & { budget: RateBudget };

/** What each budget allows, as a 429's message says it ("At most 60 requests per minute"). */
const BUDGET_WORDS: Record<RateBudget, (limit: number) => string> = {
  requests: (n) => `At most ${n} requests per minute`,
  streamOpens: (n) => `At most ${n} stream opens per minute`,
  signIns: (n) => `At most ${n} failed sign-ins in 15 minutes`,
  signUps: (n) => `At most ${n} sign-ups per hour from this address`,
  publicReads: (n) => `At most ${n} reads of shared debates per minute from this address`,
  anonymousReads: (n) => `At most ${n} reads without signing in per minute from this address`,
};

/**
 * The 429 for a refused decision, with Retry-After: its message and its `budget` and `limit` name the
 * budget that was spent, so a client can tell a stream-open budget from its request budget.
 */
export function rateLimitedError(decision: BudgetDecision): AppError {
  const { budget, limit, retryAfter } = decision;
  noteLimitRefusal(budget);
  return new AppError('RATE_LIMITED', `${BUDGET_WORDS[budget](limit)}; retry in ${retryAfter} s`, {
    headers: { ...rateLimitHeaders(decision), 'Retry-After': String(retryAfter) },
    extra: { retryAfter, budget, limit },
  });
}
