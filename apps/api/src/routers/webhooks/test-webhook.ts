import { QueuedWebhookDelivery, WebhookIdInput } from '@verdict/contracts';
import { userProcedure } from '../../trpc/init.ts';
import { OWN_WEBHOOK_ERRORS } from './error-responses.ts';

export const testWebhook = userProcedure
  .meta({
    errors: OWN_WEBHOOK_ERRORS,
    successStatus: 201,
    openapi: {
      method: 'POST',
      path: '/api/webhooks/{id}/test',
      summary: 'Send a ping event to a webhook',
      description:
        'Queues a delivery of event ping, recorded in the delivery history and sent like any other (within a ' +
        'second, with the usual retries), also to an inactive webhook.',
    },
  })
  .input(WebhookIdInput)
  .output(QueuedWebhookDelivery)
  .mutation(({ ctx, input }) => ctx.services.webhooks.test(ctx.caller.userId, input.id));
