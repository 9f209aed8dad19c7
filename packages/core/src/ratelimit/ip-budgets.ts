import {
  ANONYMOUS_READ_LIMIT,
  type BudgetDecision,
  PUBLIC_IP_LIMIT,
  type RateLimitResources,
} from './budgets.ts';
import { hitSlidingWindow } from './limiters.ts';

const HOUR = 3_600_000;

/** Per client IP, sliding window; for unauthenticated public endpoints (a share link's read). */
export const hitPublicIp =
  ({ counters, clock, settings }: RateLimitResources) =>
  async (ip: string): Promise<BudgetDecision> => ({
    ...(await hitSlidingWindow(
      counters,
      clock,
      `ip:${ip}`,
      settings.publicReadsPerMinute ?? PUBLIC_IP_LIMIT.limit,
      PUBLIC_IP_LIMIT.windowMs,
    )),
    budget: 'publicReads',
  });

/** An anonymous read of a public resource from this client IP (ANONYMOUS_READ_LIMIT). */
export const hitAnonymousRead =
  ({ counters, clock }: RateLimitResources) =>
  async (ip: string): Promise<BudgetDecision> => ({
    ...(await hitSlidingWindow(
      counters,
      clock,
      `anonymous-ip:${ip}`,
      ANONYMOUS_READ_LIMIT.limit,
      ANONYMOUS_READ_LIMIT.windowMs,
    )),
    budget: 'anonymousReads',
  });

/** One registration attempt from this client IP: `registrationsPerHour` per sliding hour. */
export const hitRegistration =
  ({ counters, clock, settings }: RateLimitResources) =>
  async (ip: string): Promise<BudgetDecision> => ({
    ...(await hitSlidingWindow(counters, clock, `register-ip:${ip}`, settings.registrationsPerHour, HOUR)),
    budget: 'signUps',
  });
