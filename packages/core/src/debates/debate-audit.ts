import type { AuditOwner } from '../audit/audit-chains.ts';
import type { Debate } from './debate.entity.ts';

/** Whose audit trail a change to a debate (or to what hangs on it) goes to: its workspace's, else its owner's. */
export const debateAuditOwner = (debate: { workspaceId: string | null; ownerId: string }): AuditOwner =>
  debate.workspaceId ? { workspaceId: debate.workspaceId } : { accountId: debate.ownerId };

/** debateAuditOwner of a debate as the ORM loaded it. */
export const auditOwnerOf = (debate: Debate): AuditOwner =>
  debateAuditOwner({ workspaceId: debate.workspace?.id ?? null, ownerId: debate.owner.id });

/** A debate's visibility as the audit trail names it. */
export const visibilityName = (isPublic: boolean) => (isPublic ? 'public' : 'private');
