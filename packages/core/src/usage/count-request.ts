import type { UsageCounts } from './usage-counts.ts';

/** Counts one request made with the key to `endpoint`, in the UTC month of now. */
export const countRequest =
  ({ counter, period }: UsageCounts) =>
  (keyId: string, endpoint: string): void => {
    counter.add({ keyId, period: period(), endpoint });
  };
