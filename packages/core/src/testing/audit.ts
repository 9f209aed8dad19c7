import type { AuditOwner } from '../audit/audit-chains.ts';
import { type AuditContext, withAuditContext } from '../audit/audit-context.ts';
import type { Core } from '../core.ts';
import { auditTrailOf } from './audit-trail.ts';

/** The account's own life, which its chain holds beside the changes a feature's test makes. */
const ACCOUNT_LIFE = /^(account|session)\./;

/**
 * The entries of one owner's audit chain, in order, as stored, without the account's own life (its
 * creation, sessions, plan and credits: the accounts' tests check those, with auditTrailOf): what the
 * changes of a feature's test recorded.
 */
export const auditEntriesOf = async (core: Core, owner: AuditOwner) =>
  (await auditTrailOf(core.db, owner)).filter((entry) => !ACCOUNT_LIFE.test(entry.action));

/** The request a test makes its changes in: the user signed in, from a documentation address. */
export const asUser = (userId: string): AuditContext => ({
  actor: { kind: 'user', userId },
  origin: { ip: '203.0.113.9', userAgent: 'test', requestId: 'r1' },
});

/** Runs `run` as the request of `userId` (asUser), so that the entries it records name them. */
export const actingAs = <T>(userId: string, run: () => T): T => withAuditContext(asUser(userId), run);

/** What a test asserts of an entry: the action, target, changes and the user who made it. */
export const userEntry = (
  userId: string,
  action: string,
  target: { type: string; id: string | null },
  changes: Record<string, unknown> = {},
) => ({
  action,
  target_type: target.type,
  target_id: target.id,
  changes,
  actor_kind: 'user',
  actor_id: userId,
  ip: '203.0.113.9',
});
