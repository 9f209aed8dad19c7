import type { BudgetDecision, RateLimitResources, RequestPrincipal } from './budgets.ts';
import { keyRateLimit } from './budgets.ts';
import type { CountRequests } from './counter-leases.ts';
import { hitFixedWindows } from './limiters.ts';

const MINUTE = 60_000;

/** One authenticated request: the account's bucket, and the key's when it sets a lower limit. */
export const hitRequest =
  ({ clock, settings }: RateLimitResources, countRequests: CountRequests) =>
  async (principal: RequestPrincipal): Promise<BudgetDecision> => {
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
  };
