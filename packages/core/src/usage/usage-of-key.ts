import type { Usage } from '@verdict/contracts';
import { query } from '../db/kysely.ts';
import type { KeyPrincipal } from '../keys/api-keys.ts';
import { keyRateLimit } from '../ratelimit/rate-limits.ts';
import { readAs } from '../replica/read-as.ts';
import type { UsageTables } from './tables.ts';
import type { UsageCounts, UsageResources } from './usage-counts.ts';

/** The key's usage in the current UTC month: what every process wrote, plus what this one has not yet. */
export const usageOfKey =
  (resources: Pick<UsageResources, 'db' | 'reads'>, { counter, period, writtenUpTo }: UsageCounts) =>
  (key: Pick<KeyPrincipal, 'keyId' | 'userId' | 'accountLimit' | 'config'>): Promise<Usage> =>
    counter.betweenWrites(async () => {
      const month = period();
      const rows = await readAs(
        resources,
        key.userId,
        (db) =>
          query<UsageTables>(db.em())
            .selectFrom('key_usage')
            .select(['endpoint', 'count'])
            .where('key_id', '=', key.keyId)
            .where('period', '=', month)
            .execute(),
        writtenUpTo(),
      );
      const byEndpoint = new Map(rows.map((row) => [row.endpoint, Number(row.count)]));
      for (const { key: cell, n } of counter.unwritten()) {
        if (cell.keyId === key.keyId && cell.period === month) {
          byEndpoint.set(cell.endpoint, (byEndpoint.get(cell.endpoint) ?? 0) + n);
        }
      }
      let totalRequests = 0;
      for (const n of byEndpoint.values()) totalRequests += n;
      return {
        keyId: key.keyId,
        period: month,
        totalRequests,
        byEndpoint: Object.fromEntries(byEndpoint),
        rateLimit: keyRateLimit(key.accountLimit, key.config?.rateLimit),
      };
    });
