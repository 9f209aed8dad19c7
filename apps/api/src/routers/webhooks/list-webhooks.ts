import { WebhookList } from '@verdict/contracts';
import { z } from 'zod';
import { userProcedure } from '../../trpc/init.ts';

export const listWebhooks = userProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/webhooks',
      summary: "The caller's webhooks and the events they may subscribe to",
      description: 'Newest first. Secrets are never shown again after creation.',
    },
  })
  .input(z.void())
  .output(WebhookList)
  .query(({ ctx }) => ctx.services.webhooks.list(ctx.caller.userId));
