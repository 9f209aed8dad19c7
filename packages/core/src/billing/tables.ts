import type { TablesOf } from '../db/kysely.ts';
import type { CreditLedgerEntrySchema } from './credit-ledger.entity.ts';

/** The tables billing owns, for typed queries (db/kysely.ts). */
export type BillingTables = TablesOf<typeof CreditLedgerEntrySchema>;
