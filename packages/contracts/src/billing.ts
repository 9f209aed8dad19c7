import { z } from 'zod';
import { UuidInput } from './ids.ts';
import { Plan } from './plans.ts';

/** The one-time credit packs on sale: credits each gives (credits never expire). */
export const CREDIT_PACKS = { credits_100: 100, credits_500: 500, credits_2000: 2000 } as const;
export const CreditPack = z.enum(['credits_100', 'credits_500', 'credits_2000']);
export type CreditPack = z.infer<typeof CreditPack>;

/** The plans sold as monthly subscriptions through checkout. */
export const SubscriptionPlan = z.enum(['byok', 'byok_pro']);
export type SubscriptionPlan = z.infer<typeof SubscriptionPlan>;

/** POST /api/billing/checkout-session and …/checkout-session-pro. */
export const SubscriptionCheckoutInput = z.strictObject({
  interval: z.literal('monthly').meta({ description: 'Billing interval; only monthly is sold' }),
});
export type SubscriptionCheckoutInput = z.infer<typeof SubscriptionCheckoutInput>;

/** POST /api/billing/credit-checkout. */
export const CreditCheckoutInput = z.strictObject({
  pack: CreditPack.meta({ description: 'credits_100, credits_500 or credits_2000 (credits it gives)' }),
});
export type CreditCheckoutInput = z.infer<typeof CreditCheckoutInput>;

/** A hosted page of the payment processor (checkout or customer portal) to send the browser to. */
export const HostedPage = z
  .object({ url: z.url().meta({ description: 'Redirect the browser here' }) })
  .meta({ id: 'HostedPage' });
export type HostedPage = z.infer<typeof HostedPage>;

/** GET /api/billing/balance: read fresh from the account, never cached. */
export const BillingBalance = z
  .object({
    balance: z.number().int().min(0).meta({ description: 'Credits the account has now' }),
    plan: Plan,
  })
  .meta({ id: 'BillingBalance' });
export type BillingBalance = z.infer<typeof BillingBalance>;

export const InvoiceType = z.enum(['subscription', 'credit_pack']);
export type InvoiceType = z.infer<typeof InvoiceType>;
export const InvoiceStatus = z.enum(['paid', 'open', 'void', 'uncollectible']);
export type InvoiceStatus = z.infer<typeof InvoiceStatus>;

export const INVOICES_LIMIT_MAX = 50;

/** GET /api/invoices query. Numbers arrive as query strings and are coerced. */
export const InvoiceListQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(INVOICES_LIMIT_MAX).default(20),
  workspaceId: UuidInput.optional().meta({
    description:
      "The invoices of the account that pays for this workspace (its owner's); admins and owner only",
  }),
});
export type InvoiceListQuery = z.infer<typeof InvoiceListQuery>;

export const InvoiceIdInput = z.object({ id: UuidInput });

export const Invoice = z
  .object({
    id: z.uuid(),
    type: InvoiceType,
    description: z.string(),
    amountCents: z.number().int().meta({ description: 'Amount in cents' }),
    currency: z.string().meta({ description: 'ISO 4217 code, lowercase' }),
    status: InvoiceStatus,
    workspaceId: z.uuid().nullable(),
    stripeInvoiceUrl: z
      .string()
      .nullable()
      .meta({ description: "The payment processor's hosted invoice page" }),
    stripeReceiptUrl: z.string().nullable().meta({ description: 'The receipt, when the processor gave one' }),
    metadata: z
      .record(z.string(), z.union([z.string(), z.number()]))
      .meta({ description: 'creditAmount and creditPack for pack purchases; plan for subscriptions' }),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'Invoice' });
export type Invoice = z.infer<typeof Invoice>;

/** GET /api/invoices/:id: the invoice with the payment processor's identifiers. */
export const InvoiceDetail = Invoice.extend({
  stripePaymentIntentId: z.string().nullable(),
  stripeSessionId: z.string().nullable(),
  stripeInvoiceId: z.string().nullable(),
}).meta({ id: 'InvoiceDetail' });
export type InvoiceDetail = z.infer<typeof InvoiceDetail>;

export const InvoicePage = z
  .object({
    invoices: z.array(Invoice),
    page: z.number().int(),
    limit: z.number().int(),
    total: z.number().int(),
    totalPages: z.number().int(),
  })
  .meta({ id: 'InvoicePage' });
export type InvoicePage = z.infer<typeof InvoicePage>;
