import { InvoiceListQuery, InvoicePage } from '@verdict/contracts';
import { userProcedure } from '../../trpc/init.ts';

export const listInvoices = userProcedure
  .meta({
    errors: {
      FORBIDDEN: 'workspaceId names a workspace the caller is not an admin or the owner of',
      NOT_FOUND: 'workspaceId names no workspace',
    },
    openapi: {
      method: 'GET',
      path: '/api/invoices',
      summary: "The caller's invoices, newest first",
      description:
        'Subscription invoices and credit-pack purchases, paged (limit 1-50, default 20). With workspaceId: ' +
        'only the purchases its owner made for that workspace (checkout with its workspaceId), for its admins ' +
        "and owner; the owner's other purchases never show there.",
    },
  })
  .input(InvoiceListQuery)
  .output(InvoicePage)
  .query(({ ctx, input }) => ctx.services.invoices.list(ctx.caller.userId, input));
