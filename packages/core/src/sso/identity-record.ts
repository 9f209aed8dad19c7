import type { EntityManager } from '@mikro-orm/core';
import { query } from '../db/kysely.ts';
import type { SsoTables } from './tables.ts';

/**
 * The one writer of `sso_identities`: a provider's subject linked to an account, its sign-ins noted, its
 * links dropped when the person is deprovisioned or the connection removed.
 */
const k = (em: EntityManager) => query<SsoTables>(em);

/** The account a workspace's provider subject is linked to, if any. */
export async function linkedUser(em: EntityManager, workspaceId: string, subject: string) {
  const row = await k(em)
    .selectFrom('sso_identities')
    .select('user_id')
    .where('workspace_id', '=', workspaceId)
    .where('subject', '=', subject)
    .executeTakeFirst();
  return row?.user_id ?? null;
}

/** Links `subject` to the account; a link of the account to another subject of the workspace is replaced. */
export async function linkIdentity(
  em: EntityManager,
  link: { workspaceId: string; subject: string; userId: string; at: Date },
): Promise<void> {
  await k(em)
    .deleteFrom('sso_identities')
    .where('workspace_id', '=', link.workspaceId)
    .where('user_id', '=', link.userId)
    .execute();
  await k(em)
    .insertInto('sso_identities')
    .values({
      workspace_id: link.workspaceId,
      subject: link.subject,
      user_id: link.userId,
      created_at: link.at,
      last_sign_in_at: link.at,
    })
    .execute();
}

export async function noteSignIn(em: EntityManager, workspaceId: string, subject: string, at: Date) {
  await k(em)
    .updateTable('sso_identities')
    .set({ last_sign_in_at: at })
    .where('workspace_id', '=', workspaceId)
    .where('subject', '=', subject)
    .execute();
}

/** Drops the account's link to the workspace's provider (deprovisioning); whether there was one. */
export async function unlinkUser(em: EntityManager, workspaceId: string, userId: string): Promise<boolean> {
  const gone = await k(em)
    .deleteFrom('sso_identities')
    .where('workspace_id', '=', workspaceId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return gone.numDeletedRows > 0n;
}

/** Every link of the workspace's provider (its connection removed or replaced by another provider). */
export async function unlinkAll(em: EntityManager, workspaceId: string): Promise<void> {
  await k(em).deleteFrom('sso_identities').where('workspace_id', '=', workspaceId).execute();
}
