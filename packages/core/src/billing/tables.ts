import type { TablesOf } from '../db/kysely.ts';
import type { BillingCustomerSchema } from './billing-customer.entity.ts';
import type { CreditLedgerEntrySchema } from './credit-ledger.entity.ts';
import type { InvoiceSchema } from './invoice.entity.ts';
import type { StripeEventSchema } from './stripe-event.entity.ts';
import type { SubscriptionSchema } from './subscription.entity.ts';

/** The tables billing owns, for typed queries (db/kysely.ts). */
export type BillingTables = TablesOf<
  | typeof CreditLedgerEntrySchema
  | typeof BillingCustomerSchema
  | typeof SubscriptionSchema
  | typeof InvoiceSchema
  | typeof StripeEventSchema
>;
