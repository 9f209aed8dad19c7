import { defineEntity, p } from '@mikro-orm/core';
import type { WorkspaceRole } from '@verdict/contracts';
import { User } from '../accounts/user.entity.ts';
import { Workspace } from './workspace.entity.ts';

/** A person's role in a workspace; the owner has a row too (role `owner`), so one lookup answers every check. */
export const WorkspaceMemberSchema = defineEntity({
  name: 'WorkspaceMember',
  tableName: 'workspace_members',
  checks: [
    {
      name: 'workspace_members_role_check',
      expression: `role in ('owner', 'admin', 'member', 'viewer')`,
    },
  ],
  properties: {
    workspace: () => p.manyToOne(Workspace).primary().deleteRule('cascade').updateRule('no action'),
    // Indexed for "the workspaces I belong to" and for the cascade when an account is deleted.
    user: () => p.manyToOne(User).primary().deleteRule('cascade').updateRule('no action').index(),
    role: p.string().length(10).$type<WorkspaceRole>(),
    joinedAt: p.datetime().defaultRaw('now()'),
  },
});

export class WorkspaceMember extends WorkspaceMemberSchema.class {}
WorkspaceMemberSchema.setClass(WorkspaceMember);
