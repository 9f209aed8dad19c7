import { Profile } from '@verdict/contracts';
import { z } from 'zod';
import { keyProcedure } from '../../trpc/init.ts';

export const me = keyProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/v1/me',
      tags: ['v1'],
      summary: 'Profile of the account that owns the key',
      protect: true,
      errorResponses: { 401: 'Missing or invalid key', 429: 'Rate limited' },
    },
  })
  .input(z.void())
  .output(Profile)
  // The key lookup already read the owner's profile; no second round trip.
  .query(({ ctx }) => ctx.caller.key?.profile ?? ctx.core.accounts.profile(ctx.caller.userId));
