import type { Plan, Profile } from '@verdict/contracts';
import { AppError } from '../shared/app-error.ts';
import type { AccountResources } from './account-resources.ts';
import { changePlan } from './change-plan.ts';
import { changeRateLimit } from './change-rate-limit.ts';
import { createUser } from './create-user.ts';
import { issueSession, logout, sessionUser } from './sessions.ts';
import { type SignInAttempts, signIn } from './sign-in.ts';
import { type SignUpBudget, signUp } from './sign-up.ts';
import { User } from './user.entity.ts';

export type { AccountHooks } from './account-resources.ts';
export type { NewUser } from './create-user.ts';
export type { IssuedSession, SessionTerms } from './sessions.ts';

export type Accounts = ReturnType<typeof createAccounts>;

export function createAccounts(
  resources: AccountResources & { signUpBudget: SignUpBudget; signInAttempts: SignInAttempts },
) {
  const { db, clock } = resources;
  const newUser = createUser(resources);
  return {
    createUser: newUser,

    signUp: signUp(resources),
    signIn: signIn(resources),
    logout: logout(resources),
    /** A session for an account another way proved (single sign-on). */
    issueSession: issueSession(resources),
    sessionUser: sessionUser(resources),

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
        createdAt: user.createdAt.toISOString(),
      };
    },

    setPlan: async (userId: string, plan: Plan) => {
      const found = await db.em().transactional((em) => changePlan(em, clock, userId, plan));
      if (!found) throw new AppError('USER_NOT_FOUND', 'User not found');
    },

    /**
     * Sets the account's own per-minute request limit (an enterprise contract's custom limit), or with null
     * goes back to the plan's. Its keys can still only lower it.
     */
    setRateLimit: async (userId: string, perMinute: number | null) => {
      if (perMinute !== null && (!Number.isInteger(perMinute) || perMinute <= 0)) {
        throw new AppError('VALIDATION_ERROR', 'A rate limit must be a positive integer');
      }
      if (!(await db.em().transactional((em) => changeRateLimit(em, clock, userId, perMinute)))) {
        throw new AppError('USER_NOT_FOUND', 'User not found');
      }
    },
  };
}
