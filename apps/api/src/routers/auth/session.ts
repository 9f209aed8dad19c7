import { SessionInfo } from '@verdict/contracts';
import { AppError } from '@verdict/core';
import { z } from 'zod';
import { SESSION_COOKIE } from '../../trpc/context.ts';
import { publicProcedure } from '../../trpc/init.ts';

export const session = publicProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/auth/session',
      tags: ['auth'],
      summary: 'The signed-in user of the session cookie',
      errorResponses: { 401: 'No valid session' },
    },
  })
  .input(z.void())
  .output(SessionInfo)
  .query(async ({ ctx }) => {
    const token = ctx.req.cookies[SESSION_COOKIE];
    const found = token ? await ctx.core.accounts.sessionUser(token) : null;
    if (!found) throw new AppError('UNAUTHORIZED', 'Not signed in');
    return { user: found.user, expiresAt: found.expiresAt.toISOString() };
  });
