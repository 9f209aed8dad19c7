import { changeMemberRole } from './members/change-member-role.ts';
import { inviteMember } from './members/invite-member.ts';
import { listMembers } from './members/list-members.ts';
import type { MemberResources } from './members/member-rows.ts';
import { removeMember } from './members/remove-member.ts';

/**
 * Who is in a workspace. Invites add an existing account by email while the owner's plan includes workspaces
 * and has a free seat; admins and the owner remove people and change roles; the owner's role is never given,
 * changed or removed. Anyone but the owner may leave (remove themselves). Every change locks the workspace
 * row first (access.ts#lockWorkspace), then reads the caller's membership: two changes of one workspace run
 * one after the other, each checking rights as the other left them. One operation a file, under members/.
 */
export function createWorkspaceMembers(resources: MemberResources) {
  return {
    list: listMembers(resources),
    invite: inviteMember(resources),
    remove: removeMember(resources),
    changeRole: changeMemberRole(resources),
  };
}

export type WorkspaceMembers = ReturnType<typeof createWorkspaceMembers>;
