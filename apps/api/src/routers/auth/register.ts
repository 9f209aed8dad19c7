import { RegisterInput, SessionInfo } from '@verdict/contracts';
import { rateLimitedError, rateLimitHeaders } from '@verdict/core';
import { publicProcedure } from '../../trpc/init.ts';
import { setSessionCookie } from './session-cookie.ts';

export const register = publicProcedure
  .meta({
    errors: {
      CONFLICT: 'An account with this email exists',
      RATE_LIMITED: 'Too many sign-ups from this address (REGISTER_LIMIT_PER_HOUR)',
      FORBIDDEN: 'Sent from a page of another origin (CSRF)',
      SERVICE_UNAVAILABLE: 'Too many passwords being hashed right now; retry after Retry-After',
    },
    extension: true,
    setsSessionCookie: true,
    rateLimitHeaders: true,
    successStatus: 201,
    openapi: {
      method: 'POST',
      path: '/api/auth/register',
      summary: 'Create an account (free plan, 10 credits) and sign in',
    },
  })
  .input(RegisterInput)
  .output(SessionInfo)
  .mutation(async ({ ctx, input }) => {
    // No room to hash a password: refused before any other work, and not counted against the address.
    ctx.services.accounts.assertRoomToSignUp();
    // Counted per client IP before anything else: each accepted attempt may cost a password hash.
    const decision = await ctx.services.rateLimits.hitRegistration(ctx.req.ip);
    Object.assign(ctx.response.headers, rateLimitHeaders(decision));
    if (!decision.allowed) {
      throw rateLimitedError(decision);
    }
    const session = await ctx.services.accounts.register(input);
    setSessionCookie(ctx, session);
    return { user: session.user, expiresAt: session.expiresAt.toISOString() };
  });
