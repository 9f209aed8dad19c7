import { PLAN_RATE_LIMITS, type Plan, type RateBudget } from '@verdict/contracts';
import type { CoreResources } from '../resources.ts';
import type { CounterStore } from './counter-store.ts';
import type { LimitDecision } from './limiters.ts';

// What the rate limits' operations share: the budgets' sizes, who a request counts against, and the
// resources they count with (rate-limits.ts gathers the operations).

export const PUBLIC_IP_LIMIT = { limit: 30, windowMs: 60_000 };
/**
 * Anonymous reads of public resources (collections, votes, polls, comments) per client IP: the spec leaves
 * the number open; a page that shows a public debate reads a few of them at once, so more than the token
 * endpoint's 30.
 */
export const ANONYMOUS_READ_LIMIT = { limit: 120, windowMs: 60_000 };

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

/** What the rate limits count with: the shared counters, the clock their windows follow, the settings. */
export type RateLimitResources = Pick<CoreResources, 'clock'> & {
  counters: CounterStore;
  settings: RateLimitSettings;
};

/** A limiter's decision and the budget it counted against, which a 429 names. */
export type BudgetDecision = LimitDecision & { budget: RateBudget };
