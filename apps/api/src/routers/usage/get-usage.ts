import { Usage } from '@verdict/contracts';
import { z } from 'zod';
import { callingKeyProcedure } from '../../trpc/init.ts';

export const getUsage = callingKeyProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/v1/usage',
      summary: 'Requests made with the calling key this month',
      description:
        'Counts of the calling key only, for the current UTC month: every request made with it, refused ones ' +
        '(4xx, 429) included, per route template. This request is counted too. Counts from other API ' +
        'processes show within about a second.',
    },
    errors: {
      API_KEY_REQUIRED: 'Signed in with a session cookie and no API key: usage is counted per key',
    },
  })
  .input(z.void())
  .output(Usage)
  .query(({ ctx }) => ctx.services.usage.ofKey(ctx.caller.key));
