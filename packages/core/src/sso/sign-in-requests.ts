import type { EntityManager } from '@mikro-orm/core';
import type { SsoProtocol } from '@verdict/contracts';
import { query } from '../db/kysely.ts';
import type { SsoTables } from './tables.ts';

/** How long a sign-in may sit at the provider before its answer is refused. */
export const SIGN_IN_TTL_MS = 10 * 60_000;

export type SignInRequest = {
  id: string;
  workspaceId: string;
  protocol: SsoProtocol;
  bindingHash: string;
  codeVerifier: string | null;
  nonce: string | null;
  returnTo: string;
  linkingUserId: string | null;
};

const k = (em: EntityManager) => query<SsoTables>(em);

/**
 * The one writer of `sso_requests`. A sign-in under way is stored when it starts (with the expired ones of
 * any workspace swept out, so the table stays as small as the sign-ins of the last ten minutes)…
 */
export async function openRequest(em: EntityManager, request: SignInRequest, now: Date): Promise<void> {
  await k(em).deleteFrom('sso_requests').where('expires_at', '<', now.toISOString()).execute();
  await k(em)
    .insertInto('sso_requests')
    .values({
      id: request.id,
      workspace_id: request.workspaceId,
      protocol: request.protocol,
      binding_hash: request.bindingHash,
      code_verifier: request.codeVerifier,
      nonce: request.nonce,
      return_to: request.returnTo,
      linking_user_id: request.linkingUserId,
      expires_at: new Date(now.getTime() + SIGN_IN_TTL_MS),
    })
    .execute();
}

/**
 * …and used by its answer, once: the row is marked as it is read, so a second answer (a replay, or the same
 * one submitted twice at once) gets `replayed`; `unknown` for a request never made, of another workspace,
 * or expired.
 */
export async function useRequest(
  em: EntityManager,
  id: string,
  workspaceId: string,
  now: Date,
): Promise<SignInRequest | 'replayed' | 'unknown'> {
  const row = await k(em)
    .updateTable('sso_requests')
    .set({ used_at: now })
    .where('id', '=', id)
    .where('workspace_id', '=', workspaceId)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now.toISOString())
    .returningAll()
    .executeTakeFirst();
  if (!row) {
    const used = await k(em)
      .selectFrom('sso_requests')
      .select('id')
      .where('id', '=', id)
      .where('workspace_id', '=', workspaceId)
      .where('used_at', 'is not', null)
      .executeTakeFirst();
    return used ? 'replayed' : 'unknown';
  }
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    protocol: row.protocol,
    bindingHash: row.binding_hash,
    codeVerifier: row.code_verifier,
    nonce: row.nonce,
    returnTo: row.return_to,
    linkingUserId: row.linking_user_id,
  };
}
