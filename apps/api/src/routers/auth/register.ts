import { RegisterInput, SessionInfo } from '@verdict/contracts';
import { rateLimitedError, rateLimitHeaders } from '@verdict/core';
import { publicProcedure } from '../../trpc/init.ts';
import { setSessionCookie } from './session-cookie.ts';

export const register = publicProcedure
  .meta({
    successStatus: 201,
    openapi: {
      method: 'POST',
      path: '/api/auth/register',
      tags: ['auth'],
      summary: 'Create an account (free plan, 10 credits) and sign in',
      errorResponses: { 400: 'Invalid input', 409: 'Email already registered' },
    },
  })
  .input(RegisterInput)
  .output(SessionInfo)
  .mutation(async ({ ctx, input }) => {
    // Counted per client IP before anything else: each accepted attempt may cost a password hash.
    const decision = await ctx.core.rateLimits.hitRegistration(ctx.req.ip);
    Object.assign(ctx.response.headers, rateLimitHeaders(decision));
    if (!decision.allowed) {
      throw rateLimitedError(decision, 'Too many sign-ups from this address; try again later');
    }
    const session = await ctx.core.accounts.register(input);
    setSessionCookie(ctx, session);
    return { user: session.user, expiresAt: session.expiresAt.toISOString() };
  });
