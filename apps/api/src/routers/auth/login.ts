import { LoginInput, SessionInfo } from '@verdict/contracts';
import { AppError } from '@verdict/core';
import { publicProcedure } from '../../trpc/init.ts';
import { setSessionCookie } from './session-cookie.ts';

export const login = publicProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/api/auth/login',
      tags: ['auth'],
      summary: 'Sign in with email and password; sets the session cookie',
      errorResponses: {
        400: 'Invalid input',
        401: 'Wrong email or password',
        429: 'Too many failed attempts',
      },
    },
  })
  .input(LoginInput)
  .output(SessionInfo)
  .mutation(async ({ ctx, input }) => {
    const { accounts, rateLimits } = ctx.core;
    await rateLimits.assertLoginAllowed(input.email, ctx.req.ip);
    const session = await accounts.login(input.email, input.password);
    if (!session) {
      await rateLimits.recordLoginFailure(input.email, ctx.req.ip);
      throw new AppError('UNAUTHORIZED', 'Wrong email or password');
    }
    setSessionCookie(ctx, session);
    return { user: session.user, expiresAt: session.expiresAt.toISOString() };
  });
