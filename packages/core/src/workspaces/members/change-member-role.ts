import type { UpdateMemberRoleInput, WorkspaceMember } from '@verdict/contracts';
import { lockWorkspace, membershipOf } from '../access.ts';
import { assertRight } from '../roles.ts';
import { setMemberRole } from '../workspace-record.ts';
import { changeableMember, type MemberResources, toMember } from './member-rows.ts';
import { recordMemberChange } from './record-member-change.ts';

/** PATCH /api/workspaces/:id/members/:userId: admins and the owner; never to or from owner. */
export const changeMemberRole =
  ({ db, clock }: MemberResources) =>
  (userId: string, input: UpdateMemberRoleInput): Promise<WorkspaceMember> =>
    db.em().transactional(async (em) => {
      await lockWorkspace(em, input.id);
      const membership = await membershipOf(em, input.id, userId);
      assertRight(membership.role, 'manageMembers', membership);
      const target = await changeableMember(em, input.id, input.userId, 'given another role');
      await setMemberRole(em, { workspaceId: input.id, userId: input.userId, role: input.role });
      await recordMemberChange(em, clock, {
        workspaceId: input.id,
        userId: input.userId,
        before: target.role,
        after: input.role,
      });
      return toMember({ ...target, role: input.role });
    });
