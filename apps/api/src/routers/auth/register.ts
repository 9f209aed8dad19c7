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
    const { limit, session } = await ctx.services.accounts.signUp(input, ctx.req.ip);
    Object.assign(ctx.response.headers, rateLimitHeaders(limit));
    if (!session) throw rateLimitedError(limit);
    setSessionCookie(ctx, session);
    return { user: session.user, expiresAt: session.expiresAt.toISOString() };
  });
