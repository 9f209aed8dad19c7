import { z } from 'zod';
import { SESSION_COOKIE } from '../../auth/credentials.ts';
import { publicProcedure } from '../../trpc/init.ts';
import { clearSessionCookie } from './session-cookie.ts';

/** Idempotent: ends the session if there is one and always clears the cookie. */
export const logout = publicProcedure
  .meta({
    extension: true,
    setsSessionCookie: true,
    successStatus: 204,
    openapi: { method: 'POST', path: '/api/auth/logout', summary: 'Sign out' },
  })
  .input(z.void())
  .output(z.void())
  .mutation(async ({ ctx }) => {
    const token = ctx.req.cookies[SESSION_COOKIE];
    if (token) await ctx.services.accounts.logout(token);
    clearSessionCookie(ctx);
  });
