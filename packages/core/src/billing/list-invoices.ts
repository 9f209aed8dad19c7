import type { InvoiceListQuery, InvoicePage } from '@verdict/contracts';
import { offsetOf, pageOf } from '../shared/paging.ts';
import { billedAccount } from '../workspaces/billed-account.ts';
import { type InvoiceResources, invoiceQuery, toInvoice } from './invoice-resources.ts';

/**
 * The caller's invoices, newest first: all of them, or with `workspaceId` only those of purchases made
 * for that workspace, which its owner and admins see, read from the owner's account (billed-account.ts).
 * Nothing else of the owner's account shows under a workspace.
 */
export const listInvoices =
  ({ db }: InvoiceResources) =>
  async (callerId: string, filter: InvoiceListQuery): Promise<InvoicePage> => {
    const em = db.em();
    const userId =
      filter.workspaceId === undefined ? callerId : await billedAccount(em, callerId, filter.workspaceId);
    const own = invoiceQuery(em)
      .selectFrom('invoices')
      .where('user_id', '=', userId)
      .$if(filter.workspaceId !== undefined, (q) => q.where('workspace_id', '=', filter.workspaceId ?? null));
    const [rows, count] = await Promise.all([
      own
        .selectAll()
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(filter.limit)
        .offset(offsetOf(filter))
        .execute(),
      own.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    ]);
    const total = Number(count.total);
    return {
      invoices: rows.map(toInvoice),
      ...pageOf(filter, total),
    };
  };
