import type { TablesOf } from '../db/kysely.ts';
import type { WorkspaceSchema } from './workspace.entity.ts';
import type { WorkspaceMemberSchema } from './workspace-member.entity.ts';

/** The tables workspaces own, for typed queries (db/kysely.ts). */
export type WorkspaceTables = TablesOf<typeof WorkspaceSchema | typeof WorkspaceMemberSchema>;
