import { InvoiceDetail, InvoiceIdInput } from '@verdict/contracts';
import { userProcedure } from '../../trpc/init.ts';

export const getInvoice = userProcedure
  .meta({
    errors: { NOT_FOUND: "No such invoice among the caller's" },
    openapi: {
      method: 'GET',
      path: '/api/invoices/{id}',
      summary: 'One of your invoices, with the payment processor identifiers',
      description:
        "Adds stripePaymentIntentId, stripeSessionId and stripeInvoiceId. Another account's is 404.",
    },
  })
  .input(InvoiceIdInput)
  .output(InvoiceDetail)
  .query(({ ctx, input }) => ctx.services.invoices.get(ctx.caller.userId, input.id));
