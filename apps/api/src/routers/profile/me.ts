import { Profile } from '@verdict/contracts';
import { z } from 'zod';
import { keyProcedure } from '../../trpc/init.ts';

export const me = keyProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/v1/me',
      summary: 'Profile of the account that owns the key',
    },
  })
  .input(z.void())
  .output(Profile)
  // The key lookup already read the owner's profile; no second round trip.
  .query(({ ctx }) => ctx.caller.key?.profile ?? ctx.services.accounts.profile(ctx.caller.userId));
