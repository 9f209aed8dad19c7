import { LoginInput, SessionInfo } from '@verdict/contracts';
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
    const session = await ctx.services.accounts.signIn(input.email, input.password, ctx.req.ip);
    setSessionCookie(ctx, session);
    return { user: session.user, expiresAt: session.expiresAt.toISOString() };
  });
