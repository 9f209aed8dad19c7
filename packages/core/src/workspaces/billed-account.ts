import type { EntityManager } from '@mikro-orm/core';
import { membershipOf } from './access.ts';
import { assertRight } from './roles.ts';

/**
 * Whose invoices a workspace's are: its owner's (who pays for it), limited by the caller of this to those
 * of purchases made for the workspace; shown to its admins and owner (GET /api/invoices?workspaceId).
 */
export async function billedAccount(em: EntityManager, userId: string, workspaceId: string): Promise<string> {
  const membership = await membershipOf(em, workspaceId, userId);
  assertRight(membership.role, 'viewBilling', membership);
  return membership.ownerId;
}
