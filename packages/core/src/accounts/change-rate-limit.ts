import type { EntityManager } from '@mikro-orm/core';
import { recordAudit } from '../audit/record-audit.ts';
import { query } from '../db/kysely.ts';
import type { Clock } from '../shared/clock.ts';
import type { AccountTables } from './tables.ts';
import { setUserRateLimit } from './user-record.ts';

/**
 * Sets the account's own per-minute request limit (null: its plan's) in the caller's transaction, recording
 * the change when it is one; false when there is no such account.
 */
export async function changeRateLimit(
  em: EntityManager,
  clock: Clock,
  userId: string,
  perMinute: number | null,
): Promise<boolean> {
  const current = await query<AccountTables>(em)
    .selectFrom('users')
    .select('rate_limit_per_minute')
    .where('id', '=', userId)
    .forNoKeyUpdate()
    .executeTakeFirst();
  if (!current) return false;
  if (current.rate_limit_per_minute === perMinute) return true;
  await setUserRateLimit(em, userId, perMinute);
  await recordAudit(em, clock, {
    owner: { accountId: userId },
    action: 'account.rate_limit_change',
    target: { type: 'account', id: userId },
    changes: { rateLimitPerMinute: { before: current.rate_limit_per_minute, after: perMinute } },
  });
  return true;
}
