import type { BudgetDecision } from '../ratelimit/rate-limits.ts';
import type { AccountResources } from './account-resources.ts';
import { createUser, type NewUser } from './create-user.ts';
import { assertRoomToHash } from './passwords.ts';
import { type IssuedSession, issueSession } from './sessions.ts';

/** The sign-ups an address may still make: a sliding window per client IP (REGISTER_LIMIT_PER_HOUR). */
export type SignUpBudget = (ip: string) => Promise<BudgetDecision>;

/** A sign-up's answer: its address's budget (for the X-RateLimit-* headers), and the session, unless over it. */
export type SignUp = { limit: BudgetDecision; session: IssuedSession | null };

/**
 * An account made and signed in, on the free plan. No room to hash a password: 503 before any other work,
 * and not counted against the address. Then the address's budget is counted, since each accepted attempt
 * may cost a hash; over it, no account is made (`session` null: the caller answers 429).
 */
export const signUp = (resources: AccountResources & { signUpBudget: SignUpBudget }) => {
  const newUser = createUser(resources);
  const issue = issueSession(resources);
  return async (input: Required<Omit<NewUser, 'plan' | 'alongside'>>, ip: string): Promise<SignUp> => {
    assertRoomToHash();
    const limit = await resources.signUpBudget(ip);
    if (!limit.allowed) return { limit, session: null };
    return { limit, session: await issue(await newUser(input)) };
  };
};
