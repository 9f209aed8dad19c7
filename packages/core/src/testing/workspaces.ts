import { randomUUID } from 'node:crypto';
import type { Database } from '../db/orm.ts';

/**
 * Writes a workspace of `ownerId` with its members straight to the database, bypassing the plan and caps:
 * for tests of what happens to things a workspace holds. Production code creates them through workspaces/.
 */
export async function insertTestWorkspace(
  core: { db: Database },
  ownerId: string,
  members: { userId: string; role: string }[] = [],
): Promise<string> {
  const id = randomUUID();
  await core.db.execute(`insert into workspaces (id, owner_id, name, slug) values (?, ?, 'W', ?)`, [
    id,
    ownerId,
    id.slice(0, 32),
  ]);
  for (const member of [{ userId: ownerId, role: 'owner' }, ...members]) {
    await core.db.execute('insert into workspace_members (workspace_id, user_id, role) values (?, ?, ?)', [
      id,
      member.userId,
      member.role,
    ]);
  }
  return id;
}

/** Puts a stored debate in a workspace directly (no checks): a test's starting point. */
export const placeDebateIn = (core: { db: Database }, debateId: string, workspaceId: string) =>
  core.db.execute('update debates set workspace_id = ? where id = ?', [workspaceId, debateId]);
