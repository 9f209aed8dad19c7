import { defineEntity, p } from '@mikro-orm/core';
import type { DebateMode } from '@verdict/contracts';
import { User } from '../accounts/user.entity.ts';

/**
 * A team's shared space: its members (workspace_members) create, read and discuss debates together; its
 * owner's plan pays for them. Deleting it deletes its members and its debates (foreign keys cascade).
 */
export const WorkspaceSchema = defineEntity({
  name: 'Workspace',
  tableName: 'workspaces',
  properties: {
    id: p.uuid().primary().defaultRaw('gen_random_uuid()'),
    owner: () => p.manyToOne(User).deleteRule('cascade').updateRule('no action').index(),
    name: p.string().length(100),
    slug: p.string().length(48).unique(),
    description: p.string().length(500).nullable(),
    allowMemberInvites: p.boolean().default(true),
    defaultDebateMode: p.string().length(20).$type<DebateMode>().default('fast'),
    requireApprovalForPublicDebates: p.boolean().default(false),
    createdAt: p.datetime().defaultRaw('now()'),
    updatedAt: p.datetime().defaultRaw('now()'),
  },
});

export class Workspace extends WorkspaceSchema.class {}
WorkspaceSchema.setClass(Workspace);
