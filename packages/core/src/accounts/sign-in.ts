import { AppError } from '../shared/app-error.ts';
import type { AccountResources } from './account-resources.ts';
import { type IssuedSession, login } from './sessions.ts';

/**
 * Starts counting a sign-in attempt against the email's and the address's budgets of failures (429 when
 * either is spent); the attempt is given back once it proves not to be a failure (login-attempts.ts).
 */
export type SignInAttempts = (email: string, ip: string) => Promise<{ refund: () => Promise<void> }>;

/**
 * A session for the right password, else 401 with the same answer for an unknown email and a wrong
 * password. Counted before the password is checked, so a burst cannot get more checks than the budgets allow.
 */
export const signIn = (resources: AccountResources & { signInAttempts: SignInAttempts }) => {
  const check = login(resources);
  return async (email: string, password: string, ip: string): Promise<IssuedSession> => {
    const attempt = await resources.signInAttempts(email, ip);
    let session: IssuedSession | null;
    try {
      session = await check(email, password);
    } catch (err) {
      // Not checked (hashing busy, the database away): not a failure of the caller's.
      await attempt.refund().catch(() => {});
      throw err;
    }
    if (!session) throw new AppError('UNAUTHORIZED', 'Wrong email or password');
    // A right password is no failure; a refund that does not reach the counters only leaves one attempt counted.
    await attempt.refund().catch(() => {});
    return session;
  };
};
