import type { EntityManager } from '@mikro-orm/core';
import type { Plan, WorkspaceMember } from '@verdict/contracts';
import { sql } from 'kysely';
import type { AccountTables } from '../../accounts/tables.ts';
import type { PlanGates } from '../../billing/plan-gates.ts';
import { query } from '../../db/kysely.ts';
import type { CoreResources } from '../../resources.ts';
import { AppError, notFound } from '../../shared/app-error.ts';
import type { WorkspaceTables } from '../tables.ts';
import { seatsOf } from '../workspace-views.ts';

/** What the member operations run on. */
export type MemberResources = Pick<CoreResources, 'db' | 'clock'> & { plans: PlanGates };

/** Typed queries on workspaces and the accounts in them, on `em`. */
export const memberQuery = (em: EntityManager) => query<WorkspaceTables & AccountTables>(em);

export const MEMBER_COLUMNS = ['u.id as userId', 'u.name', 'u.email', 'm.role', 'm.joined_at'] as const;

export type MemberRow = {
  userId: string;
  name: string;
  email: string;
  role: WorkspaceMember['role'];
  joined_at: string;
};

export const toMember = (row: MemberRow): WorkspaceMember => ({
  userId: row.userId,
  name: row.name,
  email: row.email,
  role: row.role,
  joinedAt: new Date(row.joined_at).toISOString(),
});

/** One member of the workspace with their account's name and email, if they are one. */
export const memberRow = (em: EntityManager, workspaceId: string, userId: string) =>
  memberQuery(em)
    .selectFrom('workspace_members as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(MEMBER_COLUMNS)
    .where('m.workspace_id', '=', workspaceId)
    .where('m.user_id', '=', userId)
    .executeTakeFirst();

/** The member an admin acts on: 404 when not in the workspace, 403 when it is the owner. */
export async function changeableMember(em: EntityManager, workspaceId: string, userId: string, what: string) {
  const target = await memberRow(em, workspaceId, userId);
  if (!target) throw notFound('Member');
  if (target.role === 'owner') throw new AppError('FORBIDDEN', `The owner cannot be ${what}`);
  return target;
}

/**
 * The seats of a workspace: how many people are in it and how many its owner's plan allows (null: no cap),
 * counted under the workspace's lock (access.ts#lockWorkspace), so two additions cannot take the last seat
 * twice.
 */
export async function seatsOfWorkspace(em: EntityManager, workspaceId: string, ownerPlan: Plan) {
  const { n: memberCount } = await memberQuery(em)
    .selectFrom('workspace_members')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('workspace_id', '=', workspaceId)
    .executeTakeFirstOrThrow();
  const seats = seatsOf(ownerPlan);
  return { memberCount, seats, full: seats !== null && memberCount >= seats };
}
