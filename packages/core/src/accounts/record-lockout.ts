import { recordAudit } from '../audit/record-audit.ts';
import type { AccountResources } from './account-resources.ts';

/**
 * The account's email locked out of signing in until `until` (login-attempts.ts): the lockout is itself the
 * change, so it has a transaction of its own. Made by the service, from the address the guesses came from.
 */
export async function recordLockout(
  { db, clock }: Pick<AccountResources, 'db' | 'clock'>,
  userId: string,
  until: number,
): Promise<void> {
  await db.em().transactional((em) =>
    recordAudit(em, clock, {
      owner: { accountId: userId },
      action: 'session.lockout',
      target: { type: 'session', id: null },
      changes: { lockedUntil: { before: null, after: new Date(until).toISOString() } },
    }),
  );
}
