import type {
  BillingBalance,
  Invoice,
  InvoiceDetail,
  InvoiceListQuery,
  InvoicePage,
} from '@verdict/contracts';
import type { Selectable } from 'kysely';
import type { AccountTables } from '../accounts/tables.ts';
import { query } from '../db/kysely.ts';
import type { Database } from '../db/orm.ts';
import { AppError, notFound } from '../shared/app-error.ts';
import { offsetOf, pageOf } from '../shared/paging.ts';
import { billedAccount } from '../workspaces/billed-account.ts';
import type { BillingTables } from './tables.ts';

type Tables = BillingTables & AccountTables;
type InvoiceRow = Selectable<Tables['invoices']>;

const toInvoice = (row: InvoiceRow): Invoice => ({
  id: row.id,
  type: row.type,
  description: row.description,
  amountCents: row.amount_cents,
  currency: row.currency,
  status: row.status,
  workspaceId: row.workspace_id,
  stripeInvoiceUrl: row.stripe_invoice_url,
  stripeReceiptUrl: row.stripe_receipt_url,
  metadata: row.metadata,
  createdAt: new Date(row.created_at).toISOString(),
});

export type Invoices = ReturnType<typeof createInvoices>;

/** What an account paid (invoices, newest first) and has (its balance and plan), read fresh. */
export function createInvoices(db: Database) {
  return {
    /**
     * The caller's invoices, newest first: all of them, or with `workspaceId` only those of purchases made
     * for that workspace, which its owner and admins see, read from the owner's account (billed-account.ts).
     * Nothing else of the owner's account shows under a workspace.
     */
    list: async (callerId: string, filter: InvoiceListQuery): Promise<InvoicePage> => {
      const em = db.em();
      const userId =
        filter.workspaceId === undefined ? callerId : await billedAccount(em, callerId, filter.workspaceId);
      const own = query<Tables>(em)
        .selectFrom('invoices')
        .where('user_id', '=', userId)
        .$if(filter.workspaceId !== undefined, (q) =>
          q.where('workspace_id', '=', filter.workspaceId ?? null),
        );
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
    },

    /** One of the caller's invoices with the processor's identifiers; anyone else's is NOT_FOUND. */
    get: async (userId: string, id: string): Promise<InvoiceDetail> => {
      const row = await query<Tables>(db.em())
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
    },

    /** The balance and plan as stored this instant (credits land when the processor confirms a payment). */
    balance: async (userId: string): Promise<BillingBalance> => {
      const user = await query<Tables>(db.em())
        .selectFrom('users')
        .select(['credit_balance', 'plan'])
        .where('id', '=', userId)
        .executeTakeFirst();
      if (!user) throw new AppError('USER_NOT_FOUND', 'User not found');
      return { balance: user.credit_balance, plan: user.plan };
    },
  };
}
