import { type AuditOwner, chainOf } from '../audit/audit-chains.ts';
import { type AuditContext, withAuditContext } from '../audit/audit-context.ts';
import type { AuditTables } from '../audit/tables.ts';
import type { Core } from '../core.ts';
import { query } from '../db/kysely.ts';

/** The entries of one owner's audit chain, in order, as stored. */
export const auditEntriesOf = (core: Core, owner: AuditOwner) =>
  query<AuditTables>(core.db.em())
    .selectFrom('audit_entries')
    .selectAll()
    .where('chain', '=', chainOf(owner))
    .orderBy('seq')
    .execute();

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
