import type { WorkspaceMemberList } from '@verdict/contracts';
import { sql } from 'kysely';
import { membershipOf } from '../access.ts';
import { seatsOf } from '../workspace-views.ts';
import { MEMBER_COLUMNS, type MemberResources, memberQuery, toMember } from './member-rows.ts';

/** GET /api/workspaces/:id/members: any member; the owner first, then by when each joined. */
export const listMembers =
  ({ db }: MemberResources) =>
  async (userId: string, workspaceId: string): Promise<WorkspaceMemberList> => {
    const em = db.em();
    const membership = await membershipOf(em, workspaceId, userId);
    const rows = await memberQuery(em)
      .selectFrom('workspace_members as m')
      .innerJoin('users as u', 'u.id', 'm.user_id')
      .select(MEMBER_COLUMNS)
      .where('m.workspace_id', '=', workspaceId)
      .orderBy(sql`m.role = 'owner'`, 'desc')
      .orderBy('m.joined_at', 'asc')
      .orderBy('u.id', 'asc')
      .execute();
    return { members: rows.map(toMember), seats: seatsOf(membership.ownerPlan) };
  };
