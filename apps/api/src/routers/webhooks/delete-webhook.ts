import { WebhookIdInput } from '@verdict/contracts';
import { z } from 'zod';
import { userProcedure } from '../../trpc/init.ts';
import { OWN_WEBHOOK_ERRORS } from './error-responses.ts';

export const deleteWebhook = userProcedure
  .meta({
    errors: OWN_WEBHOOK_ERRORS,
    successStatus: 204,
    openapi: {
      method: 'DELETE',
      path: '/api/webhooks/{id}',
      summary: 'Delete a webhook and all its deliveries',
      description: 'Nothing more is sent to it, queued deliveries included.',
    },
  })
  .input(WebhookIdInput)
  .output(z.void())
  .mutation(({ ctx, input }) => ctx.services.webhooks.remove(ctx.caller.userId, input.id));
