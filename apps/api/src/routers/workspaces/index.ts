import { router } from '../../trpc/init.ts';
import { changeMemberRole } from './change-member-role.ts';
import { createWorkspace } from './create-workspace.ts';
import { deleteWorkspace } from './delete-workspace.ts';
import { getWorkspace } from './get-workspace.ts';
import { inviteMember } from './invite-member.ts';
import { listMembers } from './list-members.ts';
import { listWorkspaceDebates } from './list-workspace-debates.ts';
import { listWorkspaces } from './list-workspaces.ts';
import { removeMember } from './remove-member.ts';
import { updateWorkspace } from './update-workspace.ts';

export const workspacesRouter = router({
  create: createWorkspace,
  list: listWorkspaces,
  get: getWorkspace,
  update: updateWorkspace,
  delete: deleteWorkspace,
  members: listMembers,
  invite: inviteMember,
  removeMember,
  changeRole: changeMemberRole,
  debates: listWorkspaceDebates,
});
