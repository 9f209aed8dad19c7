import type { BudgetDecision, RateLimitResources } from './budgets.ts';
import { hitFixedWindow } from './limiters.ts';

const MINUTE = 60_000;

/**
 * Opening (or resuming) a debate stream. Streams have a budget of their own, so a client that spent its
 * request budget can still reconnect to a stream it was reading: EventSource treats a 429 as fatal.
 * `refund` gives the open back, for an answer that turns out not to stream (a 204 for a finished debate).
 */
export const hitStreamOpen =
  ({ counters, clock, settings }: RateLimitResources) =>
  async (userId: string): Promise<BudgetDecision & { refund: () => Promise<void> }> => {
    const bucket = `streams:${userId}`;
    const decision = await hitFixedWindow(counters, clock, bucket, settings.streamOpensPerMinute, MINUTE);
    return {
      ...decision,
      budget: 'streamOpens',
      refund: () => counters.decrementMany([bucket], decision.window),
    };
  };
