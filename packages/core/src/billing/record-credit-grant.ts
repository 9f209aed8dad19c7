import type { EntityManager } from '@mikro-orm/core';
import { recordAudit } from '../audit/record-audit.ts';
import type { Clock } from '../shared/clock.ts';

/**
 * Credits given to an account (an operator's grant, a pack paid for, a plan's month), recorded in the
 * transaction that moved them: the balance before and after, the amount and why. A debate's charges and
 * refunds are the ledger's alone.
 */
export async function recordCreditGrant(
  em: EntityManager,
  clock: Clock,
  grant: { userId: string; amount: number; balance: number; reason: 'grant' | 'purchase' | 'monthly_grant' },
): Promise<void> {
  await recordAudit(em, clock, {
    owner: { accountId: grant.userId },
    action: 'account.credit_grant',
    target: { type: 'account', id: grant.userId },
    changes: {
      creditBalance: { before: grant.balance - grant.amount, after: grant.balance },
      amount: { before: null, after: grant.amount },
      reason: { before: null, after: grant.reason },
    },
  });
}
