import type { LoginAttempt } from '../ratelimit/login-attempts.ts';
import { AppError } from '../shared/app-error.ts';
import type { AccountResources } from './account-resources.ts';
import { recordLockout } from './record-lockout.ts';
import { type IssuedSession, login } from './sessions.ts';

/**
 * Starts counting a sign-in attempt against the email's and the address's budgets of failures (429 when
 * either is spent); the attempt is given back once it proves not to be a failure (login-attempts.ts).
 */
export type SignInAttempts = (email: string, ip: string) => Promise<LoginAttempt>;

/**
 * A session for the right password, else 401 with the same answer for an unknown email and a wrong
 * password. Counted before the password is checked, so a burst cannot get more checks than the budgets allow.
 * The failure that locks an existing account's email out is recorded in its audit trail, once per lockout.
 */
export const signIn = (resources: AccountResources & { signInAttempts: SignInAttempts }) => {
  const check = login(resources);
  return async (email: string, password: string, ip: string): Promise<IssuedSession> => {
    const attempt = await resources.signInAttempts(email, ip);
    let outcome: Awaited<ReturnType<typeof check>>;
    try {
      outcome = await check(email, password);
    } catch (err) {
      // Not checked (hashing busy, the database away): not a failure of the caller's.
      await attempt.refund().catch(() => {});
      throw err;
    }
    if (!outcome.session) {
      if (outcome.userId !== null && attempt.lockoutUntil !== null) {
        await recordLockout(resources, outcome.userId, attempt.lockoutUntil);
      }
      throw new AppError('UNAUTHORIZED', 'Wrong email or password');
    }
    // A right password is no failure; a refund that does not reach the counters only leaves one attempt counted.
    await attempt.refund().catch(() => {});
    return outcome.session;
  };
};
