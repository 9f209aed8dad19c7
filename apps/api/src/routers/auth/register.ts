import { RegisterInput, SessionInfo } from '@verdict/contracts';
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
    const session = await ctx.core.accounts.register(input);
    setSessionCookie(ctx, session);
    return { user: session.user, expiresAt: session.expiresAt.toISOString() };
  });
