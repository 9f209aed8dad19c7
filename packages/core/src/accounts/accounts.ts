import { randomUUID } from 'node:crypto';
import { type EntityManager, UniqueConstraintViolationException } from '@mikro-orm/core';
import type { Plan, Profile, SessionUser } from '@verdict/contracts';
import type { Database } from '../db/orm.ts';
import { accountRateLimit } from '../ratelimit/rate-limits.ts';
import { AppError } from '../shared/app-error.ts';
import type { Clock } from '../shared/clock.ts';
import { randomToken, sha256Hex } from '../shared/crypto.ts';
import { assertAcceptablePassword } from './password-policy.ts';
import { assertRoomToHash, dummyPasswordHash, hashPassword, verifyPassword } from './passwords.ts';
import { Session } from './session.entity.ts';
import { User } from './user.entity.ts';
import { insertUser, setUserPlan, setUserRateLimit } from './user-record.ts';

export type NewUser = { email: string; name: string; password?: string | undefined; plan?: Plan };
export type IssuedSession = { token: string; expiresAt: Date; user: SessionUser };

export type Accounts = ReturnType<typeof createAccounts>;

export type AccountHooks = {
  /** Runs in the transaction that creates an account (billing gives it its first credits). */
  onAccountCreated: (em: EntityManager, userId: string, at: Date) => Promise<unknown>;
};

export function createAccounts(db: Database, clock: Clock, sessionTtlMs: number, hooks: AccountHooks) {
  const conflict = (cause?: unknown) =>
    new AppError('CONFLICT', 'An account with this email already exists', { cause });

  /** Cheap checks first (policy, email taken), so a refused sign-up never costs a password hash. */
  async function createUser(input: NewUser): Promise<User> {
    const email = input.email.toLowerCase();
    if (input.password !== undefined) assertAcceptablePassword(input.password);
    if (await db.em().findOne(User, { email }, { fields: ['id'] })) throw conflict();
    const passwordHash = input.password ? await hashPassword(input.password) : null;
    const id = randomUUID();
    const at = new Date(clock.now());
    try {
      await db.em().transactional(async (em) => {
        await insertUser(em, { id, email, name: input.name, passwordHash, plan: input.plan ?? 'free', at });
        await hooks.onAccountCreated(em, id, at);
      });
    } catch (err) {
      // Two sign-ups of one email racing past the check above.
      if (err instanceof UniqueConstraintViolationException) throw conflict(err);
      throw err;
    }
    // Read back: what the hook gave the account (its first credits) is part of what the caller sees.
    return db.em().findOneOrFail(User, { id });
  }

  async function issueSession(user: User): Promise<IssuedSession> {
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
  }

  return {
    createUser,

    register: async (input: Required<Omit<NewUser, 'plan'>>) => issueSession(await createUser(input)),

    /** Before anything else a sign-up does: 503 when its password could not even queue for a hash. */
    assertRoomToSignUp: assertRoomToHash,

    /** Same answer, and about the same time, for an unknown email and a wrong password. */
    login: async (email: string, password: string): Promise<IssuedSession | null> => {
      const user = await db.em().findOne(User, { email: email.toLowerCase() });
      const ok = await verifyPassword(password, user?.passwordHash ?? (await dummyPasswordHash()));
      return user?.passwordHash && ok ? issueSession(user) : null;
    },

    logout: async (token: string) => {
      await db.em().nativeDelete(Session, { tokenHash: sha256Hex(token) });
    },

    /**
     * The user behind a session cookie, or null when it is unknown or expired; with the account's request
     * limit, which the session's requests count against like a key's.
     */
    sessionUser: async (
      token: string,
    ): Promise<{ user: SessionUser; expiresAt: Date; rateLimit: number } | null> => {
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
    },

    findUser: async (id: string) => db.em().findOne(User, { id }),

    findUserByEmail: async (email: string) => db.em().findOne(User, { email: email.toLowerCase() }),

    profile: async (userId: string): Promise<Profile> => {
      const user = await db.em().findOne(User, { id: userId });
      if (!user) throw new AppError('USER_NOT_FOUND', 'User not found');
      return {
        id: user.id,
        name: user.name,
        email: user.email,
        plan: user.plan,
        createdAt: iso(user.createdAt),
      };
    },

    setPlan: async (userId: string, plan: Plan) => {
      if (!(await setUserPlan(db.em(), userId, plan))) throw new AppError('USER_NOT_FOUND', 'User not found');
    },

    /**
     * Sets the account's own per-minute request limit (an enterprise contract's custom limit), or with null
     * goes back to the plan's. Its keys can still only lower it.
     */
    setRateLimit: async (userId: string, perMinute: number | null) => {
      if (perMinute !== null && (!Number.isInteger(perMinute) || perMinute <= 0)) {
        throw new AppError('VALIDATION_ERROR', 'A rate limit must be a positive integer');
      }
      if (!(await setUserRateLimit(db.em(), userId, perMinute))) {
        throw new AppError('USER_NOT_FOUND', 'User not found');
      }
    },
  };
}

export function toSessionUser(user: User): SessionUser {
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    plan: user.plan,
    credits: user.creditBalance,
    createdAt: iso(user.createdAt),
  };
}

const iso = (date: Date) => date.toISOString();
