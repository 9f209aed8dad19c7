import { randomUUID } from 'node:crypto';
import type { SessionUser } from '@verdict/contracts';
import { accountRateLimit } from '../ratelimit/rate-limits.ts';
import { randomToken, sha256Hex } from '../shared/crypto.ts';
import type { AccountResources } from './account-resources.ts';
import { dummyPasswordHash, verifyPassword } from './passwords.ts';
import { Session } from './session.entity.ts';
import { toSessionUser } from './session-user.ts';
import { User } from './user.entity.ts';

export type IssuedSession = { token: string; expiresAt: Date; user: SessionUser };

/** A new dashboard session of the user's: its token, said once, and when it expires. */
export const issueSession =
  ({ db, clock, sessionTtlMs }: AccountResources) =>
  async (user: User): Promise<IssuedSession> => {
    const em = db.em();
    const token = randomToken(32);
    const expiresAt = new Date(clock.now() + sessionTtlMs);
    em.create(Session, {
      id: randomUUID(),
      user,
      tokenHash: sha256Hex(token),
      expiresAt,
      createdAt: new Date(clock.now()),
    });
    await em.flush();
    return { token, expiresAt, user: toSessionUser(user) };
  };

/** Same answer, and about the same time, for an unknown email and a wrong password. */
export const login = (resources: AccountResources) => {
  const issue = issueSession(resources);
  return async (email: string, password: string): Promise<IssuedSession | null> => {
    const user = await resources.db.em().findOne(User, { email: email.toLowerCase() });
    const ok = await verifyPassword(password, user?.passwordHash ?? (await dummyPasswordHash()));
    return user?.passwordHash && ok ? issue(user) : null;
  };
};

export const logout =
  ({ db }: AccountResources) =>
  async (token: string) => {
    await db.em().nativeDelete(Session, { tokenHash: sha256Hex(token) });
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
