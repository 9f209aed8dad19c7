import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/core';
import type { SessionUser } from '@verdict/contracts';
import { changesOf } from '../audit/audit-changes.ts';
import { recordAudit } from '../audit/record-audit.ts';
import { query } from '../db/kysely.ts';
import { accountRateLimit } from '../ratelimit/rate-limits.ts';
import type { Clock } from '../shared/clock.ts';
import { randomToken, sha256Hex } from '../shared/crypto.ts';
import type { AccountResources } from './account-resources.ts';
import { dummyPasswordHash, verifyPassword } from './passwords.ts';
import { Session } from './session.entity.ts';
import { toSessionUser } from './session-user.ts';
import type { AccountTables } from './tables.ts';
import { User } from './user.entity.ts';

export type IssuedSession = { token: string; expiresAt: Date; user: SessionUser };

/** What else a new session carries, and what must hold in its transaction for it to be issued. */
export type SessionTerms = {
  /** The workspace whose single sign-on opened it: leaving that workspace ends it. */
  ssoWorkspaceId?: string;
  /** Runs in the session's transaction before it is stored: a refusal thrown here issues nothing. */
  check?: (em: EntityManager) => Promise<void>;
};

/**
 * A new dashboard session of the user's: its token, said once, and when it expires. Recorded as the user's
 * own act: the request that signs in names no caller yet.
 */
export const issueSession =
  ({ db, clock, sessionTtlMs }: AccountResources) =>
  async (user: User, terms: SessionTerms = {}): Promise<IssuedSession> => {
    const token = randomToken(32);
    const expiresAt = new Date(clock.now() + sessionTtlMs);
    const id = randomUUID();
    await db.em().transactional(async (em) => {
      await terms.check?.(em);
      em.create(Session, {
        id,
        user: user.id,
        tokenHash: sha256Hex(token),
        expiresAt,
        createdAt: new Date(clock.now()),
        ssoWorkspaceId: terms.ssoWorkspaceId ?? null,
      });
      await em.flush();
      await recordAudit(em, clock, {
        owner: { accountId: user.id },
        action: 'session.create',
        target: { type: 'session', id },
        changes: changesOf(null, {
          expiresAt: expiresAt.toISOString(),
          ...(terms.ssoWorkspaceId ? { ssoWorkspaceId: terms.ssoWorkspaceId } : {}),
        }),
        actor: { kind: 'user', userId: user.id },
      });
    });
    return { token, expiresAt, user: toSessionUser(user) };
  };

/**
 * Ends the sessions a workspace's single sign-on opened for a user (they left the workspace, or were
 * deprovisioned), each recorded in the user's trail; how many ended.
 */
export async function endWorkspaceSessions(
  em: EntityManager,
  clock: Clock,
  workspaceId: string,
  userId: string,
): Promise<number> {
  const ended = await query<AccountTables>(em)
    .deleteFrom('sessions')
    .where('user_id', '=', userId)
    .where('sso_workspace_id', '=', workspaceId)
    .returning('id')
    .execute();
  for (const { id } of ended) {
    await recordAudit(em, clock, {
      owner: { accountId: userId },
      action: 'session.revoke',
      target: { type: 'session', id },
      changes: changesOf({ ssoWorkspaceId: workspaceId }, null),
    });
  }
  return ended.length;
}

/** Ends every session a workspace's single sign-on opened, the workspace being removed; each recorded. */
export async function endAllWorkspaceSessions(
  em: EntityManager,
  clock: Clock,
  workspaceId: string,
): Promise<void> {
  const holders = await query<AccountTables>(em)
    .selectFrom('sessions')
    .select('user_id')
    .distinct()
    .where('sso_workspace_id', '=', workspaceId)
    .execute();
  for (const { user_id } of holders) await endWorkspaceSessions(em, clock, workspaceId, user_id);
}

/**
 * Same answer, and about the same time, for an unknown email and a wrong password: a session, or none with
 * the account the email names (if any), for the caller to tell a locked-out account from an unknown email.
 */
export const login = (resources: AccountResources) => {
  const issue = issueSession(resources);
  return async (
    email: string,
    password: string,
  ): Promise<{ session: IssuedSession } | { session: null; userId: string | null }> => {
    const user = await resources.db.em().findOne(User, { email: email.toLowerCase() });
    const ok = await verifyPassword(password, user?.passwordHash ?? (await dummyPasswordHash()));
    if (user?.passwordHash && ok) {
      // Checked only once the password is right: a refusal tells nothing to whoever does not know it.
      const check = (em: EntityManager) => resources.hooks.onPasswordSignIn(em, user.id);
      return { session: await issue(user, { check }) };
    }
    return { session: null, userId: user?.id ?? null };
  };
};

/** Ends the session the token opens, if any; the sign-out is its user's, whatever the request names. */
export const logout =
  ({ db, clock }: AccountResources) =>
  async (token: string) => {
    await db.em().transactional(async (em) => {
      const ended = await query<AccountTables>(em)
        .deleteFrom('sessions')
        .where('token_hash', '=', sha256Hex(token))
        .returning(['id', 'user_id'])
        .executeTakeFirst();
      if (!ended) return;
      await recordAudit(em, clock, {
        owner: { accountId: ended.user_id },
        action: 'session.revoke',
        target: { type: 'session', id: ended.id },
        actor: { kind: 'user', userId: ended.user_id },
      });
    });
  };

/**
 * The user behind a session cookie, or null when it is unknown or expired; with the account's request
 * limit, which the session's requests count against like a key's.
 */
export const sessionUser =
  ({ db, clock }: AccountResources) =>
  async (token: string): Promise<{ user: SessionUser; expiresAt: Date; rateLimit: number } | null> => {
    const session = await db
      .em()
      .findOne(
        Session,
        { tokenHash: sha256Hex(token), expiresAt: { $gt: new Date(clock.now()) } },
        { populate: ['user'] },
      );
    if (!session) return null;
    const { user } = session;
    return {
      user: toSessionUser(user),
      expiresAt: session.expiresAt,
      rateLimit: accountRateLimit(user.plan, user.rateLimitPerMinute),
    };
  };
