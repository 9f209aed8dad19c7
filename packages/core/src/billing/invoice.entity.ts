import { defineEntity, p } from '@mikro-orm/core';
import type { InvoiceStatus, InvoiceType } from '@verdict/contracts';
import { User } from '../accounts/user.entity.ts';

/**
 * What an account paid or owes: a subscription's invoice (keyed by the processor's invoice id) or a credit
 * pack's purchase (keyed by its checkout session id), so a replayed event finds its row.
 */
export const InvoiceSchema = defineEntity({
  name: 'Invoice',
  tableName: 'invoices',
  indexes: [{ name: 'invoices_user_created_index', properties: ['user', 'createdAt'] }],
  properties: {
    id: p.uuid().primary().defaultRaw('gen_random_uuid()'),
    user: () => p.manyToOne(User).deleteRule('cascade'),
    /** The workspace billed; no foreign key, so an invoice outlives its workspace. */
    workspaceId: p.uuid().nullable(),
    type: p.string().$type<InvoiceType>().length(20),
    description: p.string().length(500),
    amountCents: p.integer(),
    currency: p.string().length(3),
    status: p.string().$type<InvoiceStatus>().length(20),
    stripeInvoiceId: p.string().length(255).nullable().unique(),
    stripeSessionId: p.string().length(255).nullable().unique(),
    stripePaymentIntentId: p.string().length(255).nullable(),
    stripeInvoiceUrl: p.string().length(2048).nullable(),
    stripeReceiptUrl: p.string().length(2048).nullable(),
    metadata: p.json<Record<string, string | number>>(),
    createdAt: p.datetime().defaultRaw('now()'),
  },
});

export class Invoice extends InvoiceSchema.class {}
InvoiceSchema.setClass(Invoice);
