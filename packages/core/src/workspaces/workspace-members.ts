import type { EntityManager } from '@mikro-orm/core';
import type {
  InviteMemberInput,
  UpdateMemberRoleInput,
  WorkspaceMember,
  WorkspaceMemberList,
} from '@verdict/contracts';
import { sql } from 'kysely';
import type { AccountTables } from '../accounts/tables.ts';
import type { PlanGates } from '../billing/plan-gates.ts';
import { query } from '../db/kysely.ts';
import type { Database } from '../db/orm.ts';
import { AppError, notFound } from '../shared/app-error.ts';
import type { Clock } from '../shared/clock.ts';
import { lockWorkspace, membershipOf } from './access.ts';
import { assertRight } from './roles.ts';
import type { WorkspaceTables } from './tables.ts';
import { addMember, removeMember, setMemberRole } from './workspace-record.ts';
import { seatsOf } from './workspace-views.ts';

type Tables = WorkspaceTables & AccountTables;

const MEMBER_COLUMNS = ['u.id as userId', 'u.name', 'u.email', 'm.role', 'm.joined_at'] as const;

type MemberRow = {
  userId: string;
  name: string;
  email: string;
  role: WorkspaceMember['role'];
  joined_at: string;
};

const toMember = (row: MemberRow): WorkspaceMember => ({
  userId: row.userId,
  name: row.name,
  email: row.email,
  role: row.role,
  joinedAt: new Date(row.joined_at).toISOString(),
});

/**
 * Who is in a workspace. Invites add an existing account by email while the owner's plan includes workspaces
 * and has a free seat; admins and the owner remove people and change roles; the owner's role is never given,
 * changed or removed. Anyone but the owner may leave (remove themselves). Every change locks the workspace
 * row first (access.ts#lockWorkspace), then reads the caller's membership: two changes of one workspace run
 * one after the other, each checking rights as the other left them.
 */
export function createWorkspaceMembers(db: Database, clock: Clock, plans: PlanGates) {
  const k = (em: EntityManager = db.em()) => query<Tables>(em);

  const memberRow = (em: EntityManager, workspaceId: string, userId: string) =>
    k(em)
      .selectFrom('workspace_members as m')
      .innerJoin('users as u', 'u.id', 'm.user_id')
      .select(MEMBER_COLUMNS)
      .where('m.workspace_id', '=', workspaceId)
      .where('m.user_id', '=', userId)
      .executeTakeFirst();

  /** The member an admin acts on: 404 when not in the workspace, 403 when it is the owner. */
  async function changeableMember(em: EntityManager, workspaceId: string, userId: string, what: string) {
    const target = await memberRow(em, workspaceId, userId);
    if (!target) throw notFound('Member');
    if (target.role === 'owner') throw new AppError('FORBIDDEN', `The owner cannot be ${what}`);
    return target;
  }

  return {
    /** GET /api/workspaces/:id/members: any member; the owner first, then by when each joined. */
    list: async (userId: string, workspaceId: string): Promise<WorkspaceMemberList> => {
      const em = db.em();
      const membership = await membershipOf(em, workspaceId, userId);
      const rows = await k(em)
        .selectFrom('workspace_members as m')
        .innerJoin('users as u', 'u.id', 'm.user_id')
        .select(MEMBER_COLUMNS)
        .where('m.workspace_id', '=', workspaceId)
        .orderBy(sql`m.role = 'owner'`, 'desc')
        .orderBy('m.joined_at', 'asc')
        .orderBy('u.id', 'asc')
        .execute();
      return { members: rows.map(toMember), seats: seatsOf(membership.ownerPlan) };
    },

    /**
     * POST /api/workspaces/:id/members. The caller's rights first, then the owner's plan (402 BYOK_REQUIRED
     * once it no longer includes workspaces, as for new debates there), then the invitee, then a seat. The
     * workspace row is locked for the count, so parallel invites cannot fill more seats than the plan has.
     */
    invite: (userId: string, input: InviteMemberInput): Promise<WorkspaceMember> =>
      db.em().transactional(async (em) => {
        await lockWorkspace(em, input.id);
        const membership = await membershipOf(em, input.id, userId);
        assertRight(membership.role, 'invite', membership);
        if (input.role === 'admin') assertRight(membership.role, 'appointAdmins', membership);
        plans.assertIncludes(membership.ownerPlan, 'workspaces', "the workspace owner's account");
        const invitee = await k(em)
          .selectFrom('users')
          .select('id')
          .where('email', '=', input.email)
          .executeTakeFirst();
        if (!invitee) throw new AppError('NOT_FOUND', 'No account has this email');
        if (await memberRow(em, input.id, invitee.id)) {
          throw new AppError('CONFLICT', 'This person is already a member of the workspace');
        }
        const { n: memberCount } = await k(em)
          .selectFrom('workspace_members')
          .select(sql<number>`count(*)::int`.as('n'))
          .where('workspace_id', '=', input.id)
          .executeTakeFirstOrThrow();
        const seats = seatsOf(membership.ownerPlan);
        if (seats !== null && memberCount >= seats) {
          throw new AppError(
            'SEAT_LIMIT_REACHED',
            `All ${seats} seats of the owner's ${membership.ownerPlan} plan are taken`,
            { extra: { seats, memberCount, upgradeUrl: plans.upgradeUrl } },
          );
        }
        await addMember(em, {
          workspace_id: input.id,
          user_id: invitee.id,
          role: input.role,
          joined_at: new Date(clock.now()),
        });
        return toMember((await memberRow(em, input.id, invitee.id)) as MemberRow);
      }),

    /** DELETE /api/workspaces/:id/members/:userId: admins and the owner, or a member leaving. */
    remove: (userId: string, workspaceId: string, memberId: string): Promise<void> =>
      db.em().transactional(async (em) => {
        await lockWorkspace(em, workspaceId);
        const membership = await membershipOf(em, workspaceId, userId);
        if (memberId !== userId) assertRight(membership.role, 'manageMembers', membership);
        await changeableMember(em, workspaceId, memberId, 'removed');
        await removeMember(em, workspaceId, memberId);
      }),

    /** PATCH /api/workspaces/:id/members/:userId: admins and the owner; never to or from owner. */
    changeRole: (userId: string, input: UpdateMemberRoleInput): Promise<WorkspaceMember> =>
      db.em().transactional(async (em) => {
        await lockWorkspace(em, input.id);
        const membership = await membershipOf(em, input.id, userId);
        assertRight(membership.role, 'manageMembers', membership);
        const target = await changeableMember(em, input.id, input.userId, 'given another role');
        await setMemberRole(em, { workspaceId: input.id, userId: input.userId, role: input.role });
        return toMember({ ...target, role: input.role });
      }),
  };
}

export type WorkspaceMembers = ReturnType<typeof createWorkspaceMembers>;
