import type { EntityManager } from '@mikro-orm/core';
import {
  CREDIT_PACKS,
  CreditPack,
  type InvoiceStatus,
  PLAN_NAMES,
  PLANS,
  type Plan,
  UuidInput,
} from '@verdict/contracts';
import { sql } from 'kysely';
import { query } from '../../db/kysely.ts';
import { creditOnce } from '../ledger.ts';
import type { BillingTables } from '../tables.ts';
import type { Stripe } from './stripe-client.ts';
import { idOf } from './subscription-sync.ts';

/**
 * The workspace a purchase was made for, from the metadata checkout wrote (after checking that the buyer
 * owns it); null when none. Recorded on the invoice, so the workspace's admins see it and nothing else.
 */
export const workspaceOf = (metadata: Record<string, string> | null | undefined): string | null => {
  const written = UuidInput.safeParse(metadata?.workspaceId);
  return written.success ? written.data : null;
};

/**
 * A paid credit-pack checkout: its credits (once per session, whatever the replays) and its invoice row.
 * The pack comes from the session's metadata, which this server wrote; the credits from our own pack table.
 */
export async function recordPackPurchase(
  em: EntityManager,
  session: Stripe.Checkout.Session,
  userId: string,
  now: Date,
): Promise<boolean> {
  const pack = CreditPack.safeParse(session.metadata?.creditPack);
  if (!pack.success || session.payment_status !== 'paid') return false;
  const credits = CREDIT_PACKS[pack.data];
  await creditOnce(em, {
    userId,
    credits,
    reason: 'purchase',
    reference: `checkout:${session.id}`,
    note: `${pack.data} bought`,
    at: now,
  });
  await query<BillingTables>(em)
    .insertInto('invoices')
    .values({
      id: sql`gen_random_uuid()`,
      user_id: userId,
      workspace_id: workspaceOf(session.metadata),
      type: 'credit_pack',
      description: `${credits} credits`,
      amount_cents: session.amount_total ?? 0,
      currency: (session.currency ?? 'usd').toLowerCase(),
      status: 'paid',
      stripe_invoice_id: null,
      stripe_session_id: session.id,
      stripe_payment_intent_id: idOf(session.payment_intent),
      stripe_invoice_url: null,
      stripe_receipt_url: null,
      metadata: sql<never>`${JSON.stringify({ creditAmount: credits, creditPack: pack.data })}::jsonb`,
      created_at: now,
    })
    .onConflict((conflict) => conflict.column('stripe_session_id').doNothing())
    .execute();
  return true;
}

/** The processor's invoice statuses as the spec names them: a draft is not yet final, so open. */
const STATUS: Record<string, InvoiceStatus> = {
  draft: 'open',
  open: 'open',
  paid: 'paid',
  void: 'void',
  uncollectible: 'uncollectible',
};

/**
 * A subscription's invoice, by the processor's invoice id, attributed to the workspace its subscription was
 * bought for (`workspaceId`, from the subscription's metadata): created on its first event, its status updated
 * by later ones — except that a paid or void invoice stays so (a late `payment_failed` of an earlier attempt
 * cannot reopen it). On `paid`, the plan's monthly credits for that invoice's period, once.
 */
export async function recordSubscriptionInvoice(
  em: EntityManager,
  invoice: Stripe.Invoice,
  account: { userId: string; plan: Plan; workspaceId: string | null; paid: boolean; now: Date },
) {
  const status: InvoiceStatus = account.paid ? 'paid' : (STATUS[invoice.status ?? 'open'] ?? 'open');
  await query<BillingTables>(em)
    .insertInto('invoices')
    .values({
      id: sql`gen_random_uuid()`,
      user_id: account.userId,
      workspace_id: account.workspaceId,
      type: 'subscription',
      description: invoice.description ?? `${PLAN_NAMES[account.plan]} plan, monthly`,
      amount_cents: account.paid ? invoice.amount_paid : invoice.amount_due,
      currency: invoice.currency.toLowerCase(),
      status,
      stripe_invoice_id: invoice.id,
      stripe_session_id: null,
      stripe_payment_intent_id: null,
      stripe_invoice_url: invoice.hosted_invoice_url ?? null,
      stripe_receipt_url: null,
      metadata: sql<never>`${JSON.stringify({ plan: account.plan })}::jsonb`,
      created_at: new Date(invoice.created * 1000),
    })
    .onConflict((conflict) =>
      conflict.column('stripe_invoice_id').doUpdateSet({
        status: sql`case when "invoices"."status" in ('paid', 'void') then "invoices"."status" else excluded."status" end`,
        amount_cents: sql`case when "invoices"."status" in ('paid', 'void') then "invoices"."amount_cents" else excluded."amount_cents" end`,
        stripe_invoice_url: sql`coalesce(excluded."stripe_invoice_url", "invoices"."stripe_invoice_url")`,
      }),
    )
    .execute();
  const monthly = PLANS[account.plan].monthlyCredits;
  if (account.paid && monthly > 0) {
    await creditOnce(em, {
      userId: account.userId,
      credits: monthly,
      reason: 'monthly_grant',
      reference: `invoice:${invoice.id}`,
      note: `${PLAN_NAMES[account.plan]} plan, monthly credits`,
      at: account.now,
    });
  }
}
