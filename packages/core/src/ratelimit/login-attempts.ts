import type { RateBudget } from '@verdict/contracts';
import { AppError } from '../shared/app-error.ts';
import type { Clock } from '../shared/clock.ts';
import type { CounterStore } from './counter-store.ts';
import { noteLimitRefusal } from './refusals.ts';

const MINUTE = 60_000;

/**
 * Failed logins allowed (per email, per client IP) before further attempts are refused for the rest of the
 * window; an attempt under way counts as failed until its password proved right (startLoginAttempt).
 */
export const LOGIN_FAILURE_LIMITS = { perEmail: 10, perIp: 50, windowMs: 15 * MINUTE };

/**
 * An attempt under way: `refund` gives it back when it proves no failure; `lockoutUntil` is when the email's
 * lockout would end should this attempt fail (it is the one that fills the email's budget), else null.
 */
export type LoginAttempt = { refund: () => Promise<void>; lockoutUntil: number | null };

/**
 * One sign-in attempt for `email` from `ip`, counted against both budgets BEFORE its password is checked:
 * the count is one atomic increment, so however many attempts arrive at once, on however many processes,
 * at most LOGIN_FAILURE_LIMITS of them get to a password check. Over either budget, the attempt is given
 * back and refused (RATE_LIMITED, Retry-After until the window ends): the counts stay the attempts that
 * were checked. The caller gives the attempt back (`refund`) when it was not a failure — the password was
 * right, or could not be checked — so the budgets count failures, and those under way.
 */
export const startLoginAttempt =
  (store: CounterStore, clock: Clock) =>
  async (email: string, ip: string): Promise<LoginAttempt> => {
    const { windowMs, perEmail, perIp } = LOGIN_FAILURE_LIMITS;
    const now = clock.now();
    const window = Math.floor(now / windowMs);
    const buckets = [`login-email:${email}`, `login-ip:${ip}`];
    const [byEmail = 0, byIp = 0] = await store.incrementMany(buckets, window, windowMs);
    const refund = () => store.decrementMany(buckets, window);
    if (byEmail > perEmail || byIp > perIp) {
      await refund();
      const retryAfter = Math.max(1, Math.ceil(((window + 1) * windowMs - now) / 1000));
      const limit = byEmail > perEmail ? perEmail : perIp;
      const per = byEmail > perEmail ? 'for this email' : 'from this address';
      noteLimitRefusal('signIns');
      throw new AppError(
        'RATE_LIMITED',
        `At most ${limit} failed sign-ins ${per} in ${windowMs / MINUTE} minutes; retry in ${retryAfter} s`,
        {
          headers: { 'Retry-After': String(retryAfter) },
          extra: { retryAfter, budget: 'signIns' satisfies RateBudget, limit },
        },
      );
    }
    // This attempt holds the email's last allowed failure: if it fails, the email is locked out from now.
    return { refund, lockoutUntil: byEmail === perEmail ? (window + 1) * windowMs : null };
  };
