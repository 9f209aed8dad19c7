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
        "the invoices of the account that pays for that workspace (its owner's), for its admins and owner.",
    },
  })
  .input(InvoiceListQuery)
  .output(InvoicePage)
  .query(async ({ ctx, input }) => {
    const { workspaceId, ...paging } = input;
    const account = workspaceId
      ? await ctx.services.workspaces.billedAccount(ctx.caller.userId, workspaceId)
      : ctx.caller.userId;
    return ctx.services.invoices.list(account, paging);
  });
