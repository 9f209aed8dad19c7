import type { EntityManager } from '@mikro-orm/core';
import { membershipOf } from './access.ts';
import { assertRight } from './roles.ts';

/**
 * Before a purchase made for a workspace: 404 no such workspace, 403 the caller is not its owner (the
 * owner's account pays for it, so only the owner buys for it). Checkout's operations ask it first.
 */
export async function assertPaysFor(em: EntityManager, userId: string, workspaceId: string): Promise<void> {
  const membership = await membershipOf(em, workspaceId, userId);
  assertRight(membership.role, 'payFor', membership);
}
