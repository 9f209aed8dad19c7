import { LoginInput, SessionInfo } from '@verdict/contracts';
import { AppError } from '@verdict/core';
import { publicProcedure } from '../../trpc/init.ts';
import { setSessionCookie } from './session-cookie.ts';

export const login = publicProcedure
  .meta({
    errors: {
      UNAUTHORIZED: 'Wrong email or password',
      RATE_LIMITED: 'Too many failed attempts for this email or from this address',
      FORBIDDEN: 'Sent from a page of another origin (CSRF)',
      SERVICE_UNAVAILABLE: 'Too many passwords being hashed right now; retry after Retry-After',
    },
    extension: true,
    setsSessionCookie: true,
    openapi: {
      method: 'POST',
      path: '/api/auth/login',
      summary: 'Sign in with email and password; sets the session cookie',
    },
  })
  .input(LoginInput)
  .output(SessionInfo)
  .mutation(async ({ ctx, input }) => {
    const { accounts, rateLimits } = ctx.services;
    // Counted before the password is checked, so a burst cannot get more checks than the budget allows.
    const attempt = await rateLimits.startLoginAttempt(input.email, ctx.req.ip);
    let session: Awaited<ReturnType<typeof accounts.login>>;
    try {
      session = await accounts.login(input.email, input.password);
    } catch (err) {
      // Not checked (hashing busy, the database away): not a failure of the caller's.
      await attempt.refund().catch(() => {});
      throw err;
    }
    if (!session) throw new AppError('UNAUTHORIZED', 'Wrong email or password');
    // A right password is no failure; a refund that does not reach the counters only leaves one attempt counted.
    await attempt.refund().catch(() => {});
    setSessionCookie(ctx, session);
    return { user: session.user, expiresAt: session.expiresAt.toISOString() };
  });
