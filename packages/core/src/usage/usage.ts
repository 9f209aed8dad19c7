import { countRequest } from './count-request.ts';
import { createUsageCounts, type UsageResources } from './usage-counts.ts';
import { usageOfKey } from './usage-of-key.ts';

export { type UsageCell, type UsageResources, type UsageSettings, usagePeriod } from './usage-counts.ts';

export type KeyUsage = ReturnType<typeof createUsage>;

/**
 * Requests per API key, month and endpoint. Counting is in memory (no database write on a request's path);
 * every API process adds its counts to `key_usage` once a second in one statement, and on close. A read adds
 * this process's unwritten counts to the stored ones; other processes' show within a second.
 */
export function createUsage(resources: UsageResources) {
  const counts = createUsageCounts(resources);
  return {
    count: countRequest(counts),
    ofKey: usageOfKey(resources, counts),
    /** Writes the counts so far (the timer does it every second; tests and shutdown call it). */
    flush: counts.counter.flush,
    close: counts.counter.close,
  };
}
