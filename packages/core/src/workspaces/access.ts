import type { EntityManager } from '@mikro-orm/core';
import type { DebateMode, Plan, WorkspaceRole } from '@verdict/contracts';
import type { AccountTables } from '../accounts/tables.ts';
import { query } from '../db/kysely.ts';
import { AppError, notFound } from '../shared/app-error.ts';
import type { WorkspaceTables } from './tables.ts';

type Tables = WorkspaceTables & AccountTables;

/** A person's place in a workspace, with what the checks of their rights need. */
export type Membership = {
  workspaceId: string;
  ownerId: string;
  /** The owner's plan: it pays for the workspace's debates and sets its seats. */
  ownerPlan: Plan;
  role: WorkspaceRole;
  allowMemberInvites: boolean;
  defaultDebateMode: DebateMode;
  requireApprovalForPublicDebates: boolean;
};

/**
 * `userId`'s membership of a workspace, or null when the workspace does not exist or they are not in it.
 * `lock: 'share'` holds their member row until the caller's transaction ends, so a removal or a role change
 * cannot slip between the check and what it allows.
 */
export async function findMembership(
  em: EntityManager,
  workspaceId: string,
  userId: string,
  lock: 'none' | 'share' = 'none',
): Promise<Membership | null> {
  let select = query<Tables>(em)
    .selectFrom('workspace_members as m')
    .innerJoin('workspaces as w', 'w.id', 'm.workspace_id')
    .innerJoin('users as o', 'o.id', 'w.owner_id')
    .select([
      'w.id as workspaceId',
      'w.owner_id as ownerId',
      'o.plan as ownerPlan',
      'm.role',
      'w.allow_member_invites as allowMemberInvites',
      'w.default_debate_mode as defaultDebateMode',
      'w.require_approval_for_public_debates as requireApprovalForPublicDebates',
    ])
    .where('m.workspace_id', '=', workspaceId)
    .where('m.user_id', '=', userId);
  if (lock === 'share') select = select.forShare('m');
  return (await select.executeTakeFirst()) ?? null;
}

/**
 * For the workspace routes: 404 NOT_FOUND when the workspace does not exist, 403 FORBIDDEN when the caller
 * is not in it, else their membership.
 */
export async function membershipOf(
  em: EntityManager,
  workspaceId: string,
  userId: string,
  lock: 'none' | 'share' = 'none',
): Promise<Membership> {
  const membership = await findMembership(em, workspaceId, userId, lock);
  if (membership) return membership;
  const exists = await query<Tables>(em)
    .selectFrom('workspaces')
    .select('id')
    .where('id', '=', workspaceId)
    .executeTakeFirst();
  if (!exists) throw notFound('Workspace');
  throw new AppError('FORBIDDEN', 'You are not a member of this workspace');
}

/**
 * Locks a workspace row against every other change of the workspace or its members (`for no key update`,
 * which still lets a debate or a member row that refers to it be inserted). Whatever changes members or
 * settings takes this first and then the member rows, always in that order, so two such changes run one
 * after the other and never deadlock; each then reads the caller's membership as it is now.
 */
export async function lockWorkspace(em: EntityManager, workspaceId: string): Promise<void> {
  await query<Tables>(em)
    .selectFrom('workspaces')
    .select('id')
    .where('id', '=', workspaceId)
    .forNoKeyUpdate()
    .execute();
}
