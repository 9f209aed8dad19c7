import type { EntityManager } from '@mikro-orm/core';
import type { Plan } from '@verdict/contracts';
import { recordAudit } from '../audit/record-audit.ts';
import { query } from '../db/kysely.ts';
import type { Clock } from '../shared/clock.ts';
import type { AccountTables } from './tables.ts';
import { setUserPlan } from './user-record.ts';

/**
 * Puts the account on `plan` in the caller's transaction, recording the change when it is one: an
 * operator's set-plan and the processor's subscriptions both come through here. False when there is no such
 * account. The row is locked first, so the plan recorded as before is the one replaced.
 */
export async function changePlan(
  em: EntityManager,
  clock: Clock,
  userId: string,
  plan: Plan,
): Promise<boolean> {
  const current = await query<AccountTables>(em)
    .selectFrom('users')
    .select('plan')
    .where('id', '=', userId)
    .forNoKeyUpdate()
    .executeTakeFirst();
  if (!current) return false;
  if (current.plan === plan) return true;
  await setUserPlan(em, userId, plan);
  await recordAudit(em, clock, {
    owner: { accountId: userId },
    action: 'account.plan_change',
    target: { type: 'account', id: userId },
    changes: { plan: { before: current.plan, after: plan } },
  });
  return true;
}
