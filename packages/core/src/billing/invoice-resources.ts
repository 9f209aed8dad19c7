import type { EntityManager } from '@mikro-orm/core';
import type { Invoice } from '@verdict/contracts';
import type { Selectable } from 'kysely';
import type { AccountTables } from '../accounts/tables.ts';
import { query } from '../db/kysely.ts';
import type { CoreResources } from '../resources.ts';
import type { BillingTables } from './tables.ts';

/** What the invoices' operations use of core's resources. */
export type InvoiceResources = Pick<CoreResources, 'db'>;

type Tables = BillingTables & AccountTables;
type InvoiceRow = Selectable<Tables['invoices']>;

/** Typed queries on the invoices and their accounts, on `em`. */
export const invoiceQuery = (em: EntityManager) => query<Tables>(em);

export const toInvoice = (row: InvoiceRow): Invoice => ({
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
