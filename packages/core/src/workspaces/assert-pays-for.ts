import { membershipOf } from './access.ts';
import { assertRight } from './roles.ts';
import type { WorkspaceResources } from './workspace-resources.ts';

/**
 * Before a purchase made for a workspace: 404 no such workspace, 403 the caller is not its owner (the
 * owner's account pays for it, so only the owner buys for it).
 */
export const assertPaysFor =
  ({ db }: WorkspaceResources) =>
  async (userId: string, workspaceId: string): Promise<void> => {
    const membership = await membershipOf(db.em(), workspaceId, userId);
    assertRight(membership.role, 'payFor', membership);
  };
