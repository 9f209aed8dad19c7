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

/** POST /api/billing/checkout-session (BYOK, which includes no workspaces). */
export const SubscriptionCheckoutInput = z.strictObject({
  interval: z.literal('monthly').meta({ description: 'Billing interval; only monthly is sold' }),
});
export type SubscriptionCheckoutInput = z.infer<typeof SubscriptionCheckoutInput>;

/**
 * Optional on the purchases that can pay for a workspace: its owner buys for it, so the invoices carry its id
 * and its admins see them in GET /api/invoices?workspaceId. The account that pays is still the caller.
 */
const PaidForWorkspace = UuidInput.optional().meta({
  description:
    'A workspace the caller owns that this purchase is for: its invoices carry the id and its admins see ' +
    'them. The caller pays either way.',
});

/**
 * POST /api/billing/checkout-session-pro: BYOK Pro, the plan that includes workspaces.
 *
 * @example
 * ProCheckoutInput.parse({ interval: 'monthly', workspaceId: '1b472f5b-0be8-4ca4-9ee6-451c7c0a4aff' })
 */
export const ProCheckoutInput = z.strictObject({
  ...SubscriptionCheckoutInput.shape,
  workspaceId: PaidForWorkspace,
});
export type ProCheckoutInput = z.infer<typeof ProCheckoutInput>;

/** POST /api/billing/credit-checkout. */
export const CreditCheckoutInput = z.strictObject({
  pack: CreditPack.meta({ description: 'credits_100, credits_500 or credits_2000 (credits it gives)' }),
  workspaceId: PaidForWorkspace,
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
      'Only the invoices of purchases made for this workspace (by its owner, who pays); for its admins and ' +
      "owner. The owner's other purchases never show here.",
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
    workspaceId: z
      .uuid()
      .nullable()
      .meta({ description: 'The workspace this purchase was made for (chosen at checkout); null if none' }),
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
