import type { RateBudget } from '@verdict/contracts';
import { AppError } from '../shared/app-error.ts';
import type { BudgetDecision, RateLimitResources } from './budgets.ts';
import { counterLeases } from './counter-leases.ts';
import { hitRequest } from './hit-request.ts';
import { hitStreamOpen } from './hit-stream-open.ts';
import { hitAnonymousRead, hitPublicIp, hitRegistration } from './ip-budgets.ts';
import type { LimitDecision } from './limiters.ts';
import { startLoginAttempt } from './login-attempts.ts';
import { noteLimitRefusal } from './refusals.ts';

export {
  ANONYMOUS_READ_LIMIT,
  accountRateLimit,
  type BudgetDecision,
  keyRateLimit,
  PUBLIC_IP_LIMIT,
  type RateLimitResources,
  type RateLimitSettings,
  type RequestPrincipal,
} from './budgets.ts';
export { LOGIN_FAILURE_LIMITS } from './login-attempts.ts';

export type RateLimits = ReturnType<typeof createRateLimits>;

/**
 * The budgets requests are counted against, one operation a file over the counters: the requests of an
 * account and its keys (hit-request.ts), stream opens (hit-stream-open.ts), the per-address budgets of
 * public reads, anonymous reads and sign-ups (ip-budgets.ts), and sign-in attempts (login-attempts.ts).
 */
export function createRateLimits(resources: RateLimitResources) {
  const { counters, clock } = resources;
  // Requests are counted a lease at a time where a limit is far from reached (counter-leases.ts); the other
  // budgets stay exact, and the ones with refunds must (a refund gives back one count of the shared row).
  const countRequests = counterLeases(counters);
  return {
    hitRequest: hitRequest(resources, countRequests),
    hitStreamOpen: hitStreamOpen(resources),
    hitPublicIp: hitPublicIp(resources),
    hitAnonymousRead: hitAnonymousRead(resources),
    hitRegistration: hitRegistration(resources),
    startLoginAttempt: startLoginAttempt(counters, clock),
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
