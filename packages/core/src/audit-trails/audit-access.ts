import type { EntityManager } from '@mikro-orm/core';
import { chainOf } from '../audit/audit-chains.ts';
import type { PlanGates } from '../billing/plan-gates.ts';
import { membershipOf } from '../workspaces/access.ts';
import { assertRight } from '../workspaces/roles.ts';
import { auditQuery } from './audit-resources.ts';

/**
 * The chain `userId` may read: without `workspaceId` their own account's; with it, the workspace's, for its
 * owner and admins only (404 for no such workspace, 403 for anyone else, as every workspace route answers).
 * Who may read is checked before the plan, so a stranger learns nothing from a 402. The plan is the one
 * that pays for the trail: the account's own, or the workspace owner's; without audit logs, 402.
 */
export async function readableChain(
  em: EntityManager,
  plans: PlanGates,
  userId: string,
  workspaceId: string | undefined,
): Promise<string> {
  if (workspaceId === undefined) {
    const user = await auditQuery(em)
      .selectFrom('users')
      .select('plan')
      .where('id', '=', userId)
      .executeTakeFirst();
    plans.assertIncludes(user?.plan ?? 'free', 'auditLogs');
    return chainOf({ accountId: userId });
  }
  const membership = await membershipOf(em, workspaceId, userId);
  assertRight(membership.role, 'readAudit', membership);
  plans.assertIncludes(membership.ownerPlan, 'auditLogs', "the workspace owner's account");
  return chainOf({ workspaceId });
}
