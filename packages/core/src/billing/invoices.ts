import { getBalance } from './get-balance.ts';
import { getInvoice } from './get-invoice.ts';
import type { InvoiceResources } from './invoice-resources.ts';
import { listInvoices } from './list-invoices.ts';

export type Invoices = ReturnType<typeof createInvoices>;

/** What an account paid (invoices, newest first) and has (its balance and plan), read fresh. */
export function createInvoices(resources: InvoiceResources) {
  return {
    list: listInvoices(resources),
    get: getInvoice(resources),
    balance: getBalance(resources),
  };
}
