import type { EntityManager } from '@mikro-orm/core';
import type { PlanGates } from '../billing/plan-gates.ts';
import { query } from '../db/kysely.ts';
import { type Membership, membershipOf } from '../workspaces/access.ts';
import { assertRight, type WorkspaceRight } from '../workspaces/roles.ts';
import type { WorkspaceTables } from '../workspaces/tables.ts';

/**
 * The caller's membership of the workspace, with its slug, once they have `right` over its single sign-on
 * and the owner's plan includes it: 404 for no workspace, 403 for a stranger or a role without the right,
 * 402 BYOK_REQUIRED naming Enterprise otherwise.
 */
export async function ssoAccess(
  em: EntityManager,
  plans: PlanGates,
  workspaceId: string,
  userId: string,
  right: Extract<WorkspaceRight, 'readSso' | 'configureSso' | 'manageMembers'>,
): Promise<Membership & { slug: string }> {
  const membership = await membershipOf(em, workspaceId, userId);
  assertRight(membership.role, right, membership);
  plans.assertIncludes(membership.ownerPlan, 'singleSignOn', "the workspace owner's account");
  const { slug } = await query<WorkspaceTables>(em)
    .selectFrom('workspaces')
    .select('slug')
    .where('id', '=', workspaceId)
    .executeTakeFirstOrThrow();
  return { ...membership, slug };
}
