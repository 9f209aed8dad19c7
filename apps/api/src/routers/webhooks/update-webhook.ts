import { UpdateWebhookInput, Webhook } from '@verdict/contracts';
import { userProcedure } from '../../trpc/init.ts';
import { OWN_WEBHOOK_ERRORS } from './error-responses.ts';

export const updateWebhook = userProcedure
  .meta({
    errors: {
      ...OWN_WEBHOOK_ERRORS,
      VALIDATION_ERROR: 'The URL is not https:// (or names a private address), or events is empty or unknown',
    },
    openapi: {
      method: 'PUT',
      path: '/api/webhooks/{id}',
      summary: 'Change a webhook',
      description:
        'The fields sent change; the others keep their values. events replaces the subscription; ' +
        'description null clears it; active false pauses the webhook: no new events are queued for it, and ' +
        'deliveries already queued wait until it is active again (test pings and redeliveries are still sent).',
    },
  })
  .input(UpdateWebhookInput)
  .output(Webhook)
  .mutation(({ ctx, input: { id, ...changes } }) =>
    ctx.services.webhooks.update(ctx.caller.userId, id, changes),
  );
