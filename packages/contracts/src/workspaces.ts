import { z } from 'zod';
import { Email } from './accounts.ts';
import { DebateMode } from './debates.ts';
import { UuidInput } from './ids.ts';
import { visibleText } from './text.ts';

export const WORKSPACE_NAME_MAX = 100;
export const WORKSPACE_DESCRIPTION_MAX = 500;
/** Workspaces one user may own: bounds GET /api/workspaces, which is not paginated. */
export const WORKSPACES_PER_OWNER_MAX = 100;

/** A member's role. `owner` is the creator's and cannot be given, taken or removed. */
export const WorkspaceRole = z.enum(['owner', 'admin', 'member', 'viewer']);
export type WorkspaceRole = z.infer<typeof WorkspaceRole>;

/** The roles an invite or a role change may give. */
export const AssignableWorkspaceRole = z.enum(['admin', 'member', 'viewer']);
export type AssignableWorkspaceRole = z.infer<typeof AssignableWorkspaceRole>;

/**
 * 2–48 lowercase letters, digits and hyphens, unique across the service.
 *
 * @example
 * WorkspaceSlug.parse('acme-research') // 'acme-research'
 */
export const WorkspaceSlug = z
  .string()
  .min(2)
  .max(48)
  .regex(/^[a-z0-9-]+$/, { message: 'Lowercase letters, digits and hyphens only' })
  .meta({ description: '2–48 lowercase letters, digits and hyphens; unique across the service' });

export const WorkspaceSettings = z
  .object({
    allowMemberInvites: z
      .boolean()
      .meta({ description: 'Members (not only admins and the owner) may invite people' }),
    defaultDebateMode: DebateMode.meta({
      description: 'The mode of a workspace debate created without one',
    }),
    requireApprovalForPublicDebates: z.boolean().meta({
      description: 'Only admins and the owner may make a workspace debate public or share it',
    }),
  })
  .meta({ id: 'WorkspaceSettings' });
export type WorkspaceSettings = z.infer<typeof WorkspaceSettings>;

/** A new workspace's settings. */
export const DEFAULT_WORKSPACE_SETTINGS: WorkspaceSettings = {
  allowMemberInvites: true,
  defaultDebateMode: 'fast',
  requireApprovalForPublicDebates: false,
};

const SettingsPatch = z
  .strictObject({
    allowMemberInvites: z.boolean().optional(),
    defaultDebateMode: DebateMode.optional(),
    requireApprovalForPublicDebates: z.boolean().optional(),
  })
  .meta({ description: 'Only the settings given change' });

const WorkspaceName = visibleText(1, WORKSPACE_NAME_MAX);
const WorkspaceDescription = visibleText(1, WORKSPACE_DESCRIPTION_MAX);

/** POST /api/workspaces. */
export const CreateWorkspaceInput = z.strictObject({
  name: WorkspaceName,
  slug: WorkspaceSlug,
  description: WorkspaceDescription.nullable().optional(),
  settings: SettingsPatch.optional(),
});
export type CreateWorkspaceInput = z.infer<typeof CreateWorkspaceInput>;

export const WorkspaceIdInput = z.object({ id: UuidInput });

/** PATCH /api/workspaces/:id: the fields given change, the others keep their values. */
export const UpdateWorkspaceInput = z.strictObject({
  id: UuidInput,
  name: WorkspaceName.optional(),
  description: WorkspaceDescription.nullable().optional().meta({ description: 'null clears it' }),
  settings: SettingsPatch.optional(),
});
export type UpdateWorkspaceInput = z.infer<typeof UpdateWorkspaceInput>;

/** POST /api/workspaces/:id/members. */
export const InviteMemberInput = z.strictObject({
  id: UuidInput,
  email: Email.meta({ description: 'The email of an existing account' }),
  role: AssignableWorkspaceRole,
});
export type InviteMemberInput = z.infer<typeof InviteMemberInput>;

/** DELETE /api/workspaces/:id/members/:userId. */
export const WorkspaceMemberIdInput = z.object({ id: UuidInput, userId: UuidInput });

/** PATCH /api/workspaces/:id/members/:userId. */
export const UpdateMemberRoleInput = z.strictObject({
  id: UuidInput,
  userId: UuidInput,
  role: AssignableWorkspaceRole,
});
export type UpdateMemberRoleInput = z.infer<typeof UpdateMemberRoleInput>;

/** GET /api/workspaces/:id/debates. Numbers arrive as query strings and are coerced. */
export const WorkspaceDebatesQuery = z.object({
  id: UuidInput,
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});
export type WorkspaceDebatesQuery = z.infer<typeof WorkspaceDebatesQuery>;

/** PATCH /api/debates/:id/workspace. */
export const MoveDebateInput = z.strictObject({
  id: UuidInput,
  workspaceId: UuidInput.nullable().meta({
    description: 'The workspace to move the debate into; null moves it to the personal account',
  }),
});
export type MoveDebateInput = z.infer<typeof MoveDebateInput>;

export const DebateWorkspace = z
  .object({ id: z.uuid(), workspaceId: z.uuid().nullable() })
  .meta({ id: 'DebateWorkspace' });
export type DebateWorkspace = z.infer<typeof DebateWorkspace>;

export const Workspace = z
  .object({
    id: z.uuid(),
    name: z.string(),
    slug: z.string(),
    description: z.string().nullable(),
    ownerId: z.uuid(),
    settings: WorkspaceSettings,
    role: WorkspaceRole.meta({ description: "The caller's role" }),
    memberCount: z.number().int().meta({ description: 'People in the workspace, the owner included' }),
    seats: z
      .number()
      .int()
      .nullable()
      .meta({ description: "Seats of the owner's plan, the owner included; null = unlimited" }),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'Workspace' });
export type Workspace = z.infer<typeof Workspace>;

/** GET /api/workspaces: the workspaces the caller belongs to, newest first. */
export const WorkspaceList = z.object({ workspaces: z.array(Workspace) }).meta({ id: 'WorkspaceList' });
export type WorkspaceList = z.infer<typeof WorkspaceList>;

export const WorkspaceMember = z
  .object({
    userId: z.uuid(),
    name: z.string(),
    email: z.string(),
    role: WorkspaceRole,
    joinedAt: z.iso.datetime(),
  })
  .meta({ id: 'WorkspaceMember' });
export type WorkspaceMember = z.infer<typeof WorkspaceMember>;

/** GET /api/workspaces/:id/members: the owner first, then by when each joined. */
export const WorkspaceMemberList = z
  .object({
    members: z.array(WorkspaceMember),
    seats: z.number().int().nullable().meta({ description: 'null = unlimited' }),
  })
  .meta({ id: 'WorkspaceMemberList' });
export type WorkspaceMemberList = z.infer<typeof WorkspaceMemberList>;
