import { endWorkspaceSessions } from '../../accounts/sessions.ts';
import { lockWorkspace, membershipOf } from '../access.ts';
import { assertRight } from '../roles.ts';
import { removeMember as deleteMember } from '../workspace-record.ts';
import { changeableMember, type MemberResources } from './member-rows.ts';
import { recordMemberChange } from './record-member-change.ts';

/**
 * DELETE /api/workspaces/:id/members/:userId: admins and the owner, or a member leaving. The sessions the
 * workspace's single sign-on opened for them end with their membership.
 */
export const removeMember =
  ({ db, clock }: MemberResources) =>
  (userId: string, workspaceId: string, memberId: string): Promise<void> =>
    db.em().transactional(async (em) => {
      await lockWorkspace(em, workspaceId);
      const membership = await membershipOf(em, workspaceId, userId);
      if (memberId !== userId) assertRight(membership.role, 'manageMembers', membership);
      const member = await changeableMember(em, workspaceId, memberId, 'removed');
      await deleteMember(em, workspaceId, memberId);
      await recordMemberChange(em, clock, {
        workspaceId,
        userId: memberId,
        before: member.role,
        after: null,
      });
      await endWorkspaceSessions(em, clock, workspaceId, memberId);
    });
