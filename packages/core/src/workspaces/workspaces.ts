import { createWorkspace } from './create-workspace.ts';
import { getWorkspace } from './get-workspace.ts';
import { listWorkspaces } from './list-workspaces.ts';
import { updateWorkspace } from './update-workspace.ts';
import type { WorkspaceResources } from './workspace-resources.ts';

/**
 * Workspaces: created by a BYOK Pro or Enterprise account, which becomes their owner and pays for their
 * debates; read by every member; changed by admins and the owner (roles.ts). Members: workspace-members.ts.
 * Debates in workspaces and deleting a workspace with them: debates/workspace-debates.ts. One operation a
 * file, over the resources given here.
 */
export function createWorkspaces(resources: WorkspaceResources) {
  return {
    create: createWorkspace(resources),
    list: listWorkspaces(resources),
    get: getWorkspace(resources),
    update: updateWorkspace(resources),
  };
}

export type Workspaces = ReturnType<typeof createWorkspaces>;
