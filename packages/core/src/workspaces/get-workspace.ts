import type { Workspace } from '@verdict/contracts';
import { membershipOf } from './access.ts';
import { readWorkspace } from './read-workspace.ts';
import type { WorkspaceResources } from './workspace-resources.ts';

/** GET /api/workspaces/:id: any member. */
export const getWorkspace =
  ({ db }: WorkspaceResources) =>
  async (userId: string, workspaceId: string): Promise<Workspace> => {
    const em = db.em();
    return readWorkspace(em, workspaceId, await membershipOf(em, workspaceId, userId));
  };
