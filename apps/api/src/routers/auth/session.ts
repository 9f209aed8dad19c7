import { SessionInfo } from '@verdict/contracts';
import { AppError } from '@verdict/core';
import { z } from 'zod';
import { SESSION_COOKIE } from '../../auth/credentials.ts';
import { publicProcedure } from '../../trpc/init.ts';

export const session = publicProcedure
  .meta({
    errors: { UNAUTHORIZED: 'No valid session cookie' },
    extension: true,
    openapi: {
      method: 'GET',
      path: '/api/auth/session',
      summary: 'The signed-in user of the session cookie',
    },
  })
  .input(z.void())
  .output(SessionInfo)
  .query(async ({ ctx }) => {
    const token = ctx.req.cookies[SESSION_COOKIE];
    const found = token ? await ctx.services.accounts.sessionUser(token) : null;
    if (!found) throw new AppError('UNAUTHORIZED', 'Not signed in');
    return { user: found.user, expiresAt: found.expiresAt.toISOString() };
  });
