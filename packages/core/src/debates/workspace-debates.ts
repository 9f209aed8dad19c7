import { moveToWorkspace } from './move-to-workspace.ts';
import { removeWorkspace } from './remove-workspace.ts';
import type { WorkspaceDebateResources } from './workspace-debate-resources.ts';

/**
 * Debates and the workspaces they live in: moving a debate in or out, and deleting a workspace with all its
 * debates, one operation a file. (Reading a workspace's debates is debates.list with a workspaceId.)
 */
export function createWorkspaceDebates(resources: WorkspaceDebateResources) {
  return { move: moveToWorkspace(resources), removeWorkspace: removeWorkspace(resources) };
}

export type WorkspaceDebates = ReturnType<typeof createWorkspaceDebates>;
