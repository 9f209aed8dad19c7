import { CreatedWebhook, CreateWebhookInput, WEBHOOKS_PER_USER_MAX } from '@verdict/contracts';
import { userProcedure } from '../../trpc/init.ts';

export const createWebhook = userProcedure
  .meta({
    errors: {
      VALIDATION_ERROR:
        'The URL is not https:// (or names a private or loopback address), events is empty or names an ' +
        `unknown event, the description is over 500 characters, or the caller already has ${WEBHOOKS_PER_USER_MAX} webhooks`,
    },
    successStatus: 201,
    openapi: {
      method: 'POST',
      path: '/api/webhooks',
      summary: 'Register a webhook; its signing secret is shown once',
      description:
        'Each delivery is a POST of {event, id, timestamp, data} signed twice with the secret: ' +
        'X-Verdict-Signature (hex HMAC-SHA256 of the raw body) and the Standard Webhooks headers ' +
        'webhook-id, webhook-timestamp and webhook-signature.',
    },
  })
  .input(CreateWebhookInput)
  .output(CreatedWebhook)
  .mutation(({ ctx, input }) => ctx.services.webhooks.create(ctx.caller.userId, input));
