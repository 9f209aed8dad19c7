import type { InvoiceDetail } from '@verdict/contracts';
import { notFound } from '../shared/app-error.ts';
import { type InvoiceResources, invoiceQuery, toInvoice } from './invoice-resources.ts';

/** One of the caller's invoices with the processor's identifiers; anyone else's is NOT_FOUND. */
export const getInvoice =
  ({ db }: InvoiceResources) =>
  async (userId: string, id: string): Promise<InvoiceDetail> => {
    const row = await invoiceQuery(db.em())
      .selectFrom('invoices')
      .selectAll()
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (!row) throw notFound('Invoice');
    return {
      ...toInvoice(row),
      stripePaymentIntentId: row.stripe_payment_intent_id,
      stripeSessionId: row.stripe_session_id,
      stripeInvoiceId: row.stripe_invoice_id,
    };
  };
