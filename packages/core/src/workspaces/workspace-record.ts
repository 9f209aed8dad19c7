import type { EntityManager } from '@mikro-orm/core';
import type { Insertable, Updateable } from 'kysely';
import { query } from '../db/kysely.ts';
import type { WorkspaceTables } from './tables.ts';

/**
 * The one writer of the `workspaces` and `workspace_members` rows: each change a named transition in the
 * caller's transaction (`em`), after the caller's checks and locks (access.ts#lockWorkspace, the lock
 * order in ARCHITECTURE.md). Deleting a workspace cascades to its members and debates in the database.
 */

type WorkspaceRow = WorkspaceTables['workspaces'];
type MemberRow = WorkspaceTables['workspace_members'];

const k = (em: EntityManager) => query<WorkspaceTables>(em);

/** A new workspace, or undefined when its slug is taken. */
export const insertWorkspace = (em: EntityManager, row: Insertable<WorkspaceRow>) =>
  k(em)
    .insertInto('workspaces')
    .values(row)
    .onConflict((oc) => oc.column('slug').doNothing())
    .returningAll()
    .executeTakeFirst();

/** Changes the given fields (name, description, settings, updated_at). */
export async function updateWorkspace(
  em: EntityManager,
  workspaceId: string,
  changes: Updateable<WorkspaceRow>,
): Promise<void> {
  await k(em).updateTable('workspaces').set(changes).where('id', '=', workspaceId).execute();
}

/** The workspace gone, with its members and debates (the foreign keys cascade). */
export async function deleteWorkspace(em: EntityManager, workspaceId: string): Promise<void> {
  await k(em).deleteFrom('workspaces').where('id', '=', workspaceId).execute();
}

export async function addMember(em: EntityManager, member: Insertable<MemberRow>): Promise<void> {
  await k(em).insertInto('workspace_members').values(member).execute();
}

export async function removeMember(em: EntityManager, workspaceId: string, userId: string): Promise<void> {
  await k(em)
    .deleteFrom('workspace_members')
    .where('workspace_id', '=', workspaceId)
    .where('user_id', '=', userId)
    .execute();
}

export async function setMemberRole(
  em: EntityManager,
  member: { workspaceId: string; userId: string; role: MemberRow['role'] },
): Promise<void> {
  await k(em)
    .updateTable('workspace_members')
    .set({ role: member.role })
    .where('workspace_id', '=', member.workspaceId)
    .where('user_id', '=', member.userId)
    .execute();
}
