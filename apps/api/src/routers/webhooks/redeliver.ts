import { QueuedWebhookDelivery, RedeliverWebhookInput } from '@verdict/contracts';
import { userProcedure } from '../../trpc/init.ts';

export const redeliverWebhook = userProcedure
  .meta({
    errors: { NOT_FOUND: 'No such webhook of the caller, or no such delivery of that webhook' },
    successStatus: 201,
    openapi: {
      method: 'POST',
      path: '/api/webhooks/{id}/deliveries/{deliveryId}/redeliver',
      summary: 'Send a delivery again, as a new delivery',
      description:
        'Queues the original body under a new deliveryId (so a new webhook-id), sent within a second by the ' +
        'engine nodes with the usual retries.',
    },
  })
  .input(RedeliverWebhookInput)
  .output(QueuedWebhookDelivery)
  .mutation(({ ctx, input }) =>
    ctx.services.webhooks.redeliver(ctx.caller.userId, input.id, input.deliveryId),
  );
