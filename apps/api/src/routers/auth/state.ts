import { SignInState } from '@verdict/contracts';
import { z } from 'zod';
import { SESSION_COOKIE } from '../../auth/credentials.ts';
import { publicProcedure } from '../../trpc/init.ts';

/**
 * The question a page asks before it knows whether anyone is signed in: answered 200 either way, so a
 * signed-out visit is not an error (GET /api/auth/session keeps its 401 for clients that rely on it). Only
 * the session cookie counts: a key is not a sign-in. Like that route, counted against no budget: a visit
 * without a cookie reads nothing, one with a cookie reads one row by its hash, less than counting would cost.
 */
export const state = publicProcedure
  .meta({
    extension: true,
    openapi: {
      method: 'GET',
      path: '/api/auth/state',
      summary: 'Who the session cookie signs in, if anyone (200 either way)',
      description:
        'signedIn false when no cookie came, or it is unknown, expired or signed out; otherwise signedIn ' +
        'true with the user and the expiry, as GET /api/auth/session answers them. API keys are ignored.',
    },
  })
  .input(z.void())
  .output(SignInState)
  .query(async ({ ctx }): Promise<SignInState> => {
    const token = ctx.req.cookies[SESSION_COOKIE];
    const found = token ? await ctx.services.accounts.sessionUser(token) : null;
    if (!found) return { signedIn: false };
    return { signedIn: true, user: found.user, expiresAt: found.expiresAt.toISOString() };
  });
