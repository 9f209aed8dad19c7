import { defineEntity, p } from '@mikro-orm/core';
import { User } from '../accounts/user.entity.ts';

/** Append-only: a row per credit movement. The sum of a user's rows equals users.credit_balance. */
export const CreditLedgerEntrySchema = defineEntity({
  name: 'CreditLedgerEntry',
  tableName: 'credit_ledger',
  properties: {
    id: p.uuid().primary().defaultRaw('gen_random_uuid()'),
    user: () => p.manyToOne(User).deleteRule('cascade').index(),
    delta: p.integer(),
    reason: p.string().length(50),
    note: p.string().length(500).nullable(),
    /** The debate a charge or refund belongs to. */
    debateId: p.uuid().nullable(),
    /**
     * What a purchase or a monthly grant is for (a checkout session, an invoice): unique, so the same
     * payment can never add credits twice.
     */
    reference: p.string().length(255).nullable().unique(),
    createdAt: p.datetime().defaultRaw('now()'),
  },
});

export class CreditLedgerEntry extends CreditLedgerEntrySchema.class {}
CreditLedgerEntrySchema.setClass(CreditLedgerEntry);
