import type { EntityManager } from '@mikro-orm/core';
import type { Insertable } from 'kysely';
import { query } from '../db/kysely.ts';
import type { SsoTables } from './tables.ts';

export type ConnectionRow = SsoTables['sso_connections'];
export type StoredConnection = {
  workspace_id: string;
  protocol: 'oidc' | 'saml';
  issuer: string;
  client_id: string | null;
  client_secret_sealed: string | null;
  sso_url: string | null;
  certificate: string | null;
  allowed_domains: string[];
  default_role: 'admin' | 'member' | 'viewer';
  require_sso: boolean;
  created_at: string;
  updated_at: string;
};

const k = (em: EntityManager) => query<SsoTables>(em);

/** The workspace's connection, or undefined; `lock` holds it for the caller's change. */
export async function findConnection(
  em: EntityManager,
  workspaceId: string,
  lock = false,
): Promise<StoredConnection | undefined> {
  let select = k(em).selectFrom('sso_connections').selectAll().where('workspace_id', '=', workspaceId);
  if (lock) select = select.forUpdate();
  return (await select.executeTakeFirst()) as StoredConnection | undefined;
}

/**
 * The one writer of `sso_connections`: the workspace's connection created or replaced whole (a workspace
 * has one), in the caller's transaction after its checks.
 */
export async function saveConnection(em: EntityManager, row: Insertable<ConnectionRow>): Promise<void> {
  const { workspace_id: _, created_at: __, ...changes } = row;
  await k(em)
    .insertInto('sso_connections')
    .values({ ...row, allowed_domains: JSON.stringify(row.allowed_domains) as never })
    .onConflict((oc) =>
      oc.column('workspace_id').doUpdateSet({
        ...changes,
        allowed_domains: JSON.stringify(row.allowed_domains) as never,
      }),
    )
    .execute();
}

/** Removes the connection, whether there was one. */
export async function deleteConnection(em: EntityManager, workspaceId: string): Promise<boolean> {
  const gone = await k(em)
    .deleteFrom('sso_connections')
    .where('workspace_id', '=', workspaceId)
    .executeTakeFirst();
  return gone.numDeletedRows > 0n;
}
