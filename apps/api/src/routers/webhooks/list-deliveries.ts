import { ListWebhookDeliveriesInput, WebhookDeliveryList } from '@verdict/contracts';
import { userProcedure } from '../../trpc/init.ts';
import { OWN_WEBHOOK_ERRORS } from './error-responses.ts';

export const listWebhookDeliveries = userProcedure
  .meta({
    errors: OWN_WEBHOOK_ERRORS,
    openapi: {
      method: 'GET',
      path: '/api/webhooks/{id}/deliveries',
      summary: "A webhook's deliveries, newest first, with their attempts",
      description:
        'Each delivery: its state, the exact body sent, and every attempt (status code, duration, the first ' +
        '1 KB of the answer, or why no answer came). Failed attempts are retried after 5 s, 30 s and 5 min.',
    },
  })
  .input(ListWebhookDeliveriesInput)
  .output(WebhookDeliveryList)
  .query(({ ctx, input }) => ctx.services.webhooks.deliveries(ctx.caller.userId, input));
