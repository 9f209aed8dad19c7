import type { WorkspaceRole } from '@verdict/contracts';
import { AppError } from '../shared/app-error.ts';

/**
 * What a role may do in a workspace: the spec's matrix, and the few rights it implies, in one table that
 * every check reads (roles.test.ts walks it role by role).
 * - read: the workspace, its members and its debates;
 * - writeDebates: create debates in it, or move one's own debate into it;
 * - invite: add people (members only while the workspace allows member invites);
 * - appointAdmins: invite someone as an admin (a member inviting an admin would be a way to become one);
 * - update: name, description, settings;
 * - manageMembers: remove people, change their roles (never the owner's);
 * - controlAnyDebate: pause, delete, publish or share a debate someone else created in it;
 * - publishWhenApprovalRequired: make a debate public or share it while the workspace requires approval;
 * - viewBilling: the invoices of purchases made for the workspace (never the owner's other purchases);
 * - readAudit: the workspace's audit trail (who changed what in it, from where);
 * - readSso: the workspace's single sign-on connection (never its client secret);
 * - configureSso: set up, change or remove that connection (it decides who may sign in as a member);
 * - payFor: make a purchase for the workspace (the owner's account pays, so only the owner);
 * - delete: the workspace, with its debates.
 */
export const WORKSPACE_RIGHTS = {
  read: ['owner', 'admin', 'member', 'viewer'],
  writeDebates: ['owner', 'admin', 'member'],
  invite: ['owner', 'admin', 'member'],
  appointAdmins: ['owner', 'admin'],
  update: ['owner', 'admin'],
  manageMembers: ['owner', 'admin'],
  controlAnyDebate: ['owner', 'admin'],
  publishWhenApprovalRequired: ['owner', 'admin'],
  viewBilling: ['owner', 'admin'],
  readAudit: ['owner', 'admin'],
  readSso: ['owner', 'admin'],
  configureSso: ['owner'],
  payFor: ['owner'],
  delete: ['owner'],
} as const satisfies Record<string, readonly WorkspaceRole[]>;

export type WorkspaceRight = keyof typeof WORKSPACE_RIGHTS;

/** The settings some rights depend on. */
export type RightSettings = { allowMemberInvites: boolean };

/** Whether `role` has `right`; members invite only while the workspace allows it. */
export function hasRight(role: WorkspaceRole, right: WorkspaceRight, settings: RightSettings): boolean {
  if (right === 'invite' && role === 'member' && !settings.allowMemberInvites) return false;
  return (WORKSPACE_RIGHTS[right] as readonly WorkspaceRole[]).includes(role);
}

const REFUSALS: Record<WorkspaceRight, string> = {
  read: 'You are not a member of this workspace',
  writeDebates: 'Viewers cannot create or move debates in a workspace',
  invite: 'Only admins and the owner may invite people to this workspace',
  appointAdmins: 'Only admins and the owner may make someone an admin',
  update: 'Only admins and the owner may change the workspace',
  manageMembers: 'Only admins and the owner may remove members or change roles',
  controlAnyDebate: 'Only its creator, an admin or the owner may do this to a workspace debate',
  publishWhenApprovalRequired:
    'This workspace requires approval: only admins and the owner may make its debates public or share them',
  viewBilling: "Only admins and the owner may see the workspace's invoices",
  readAudit: "Only admins and the owner may read the workspace's audit trail",
  readSso: "Only admins and the owner may see the workspace's single sign-on",
  configureSso: "Only the owner may set up the workspace's single sign-on",
  payFor: 'Only the owner pays for the workspace: purchases for it are made on their account',
  delete: 'Only the owner may delete the workspace',
};

/** Refuses with 403 FORBIDDEN, saying which right is missing. */
export function assertRight(role: WorkspaceRole, right: WorkspaceRight, settings: RightSettings): void {
  if (!hasRight(role, right, settings)) throw new AppError('FORBIDDEN', REFUSALS[right]);
}
