import type { EntityManager } from '@mikro-orm/core';
import { query } from '../db/kysely.ts';
import type { SsoTables } from './tables.ts';

/**
 * The one writer of `sso_identities`: a provider's subject linked to an account, and its sign-ins noted.
 * Links are never dropped but with their workspace or account: each answers only to its own issuer.
 */
const k = (em: EntityManager) => query<SsoTables>(em);

/** The account a workspace's provider subject is linked to, if any. */
export async function linkedUser(em: EntityManager, workspaceId: string, issuer: string, subject: string) {
  const row = await k(em)
    .selectFrom('sso_identities')
    .select('user_id')
    .where('workspace_id', '=', workspaceId)
    .where('issuer', '=', issuer)
    .where('subject', '=', subject)
    .executeTakeFirst();
  return row?.user_id ?? null;
}

/** Links `subject` to the account; a link of the account to another subject of the workspace is replaced. */
export async function linkIdentity(
  em: EntityManager,
  link: { workspaceId: string; issuer: string; subject: string; userId: string; at: Date },
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
      issuer: link.issuer,
      subject: link.subject,
      user_id: link.userId,
      created_at: link.at,
      last_sign_in_at: link.at,
    })
    .execute();
}

export async function noteSignIn(
  em: EntityManager,
  link: { workspaceId: string; issuer: string; subject: string; at: Date },
) {
  await k(em)
    .updateTable('sso_identities')
    .set({ last_sign_in_at: link.at })
    .where('workspace_id', '=', link.workspaceId)
    .where('issuer', '=', link.issuer)
    .where('subject', '=', link.subject)
    .execute();
}
