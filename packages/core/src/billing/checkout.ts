import { CREDIT_PACKS, type CreditPack, type HostedPage, type SubscriptionPlan } from '@verdict/contracts';
import type { AccountTables } from '../accounts/tables.ts';
import type { BillingConfig } from '../config/config.ts';
import { query } from '../db/kysely.ts';
import type { Database } from '../db/orm.ts';
import { AppError } from '../shared/app-error.ts';
import type { Clock } from '../shared/clock.ts';
import { callStripe, notConfigured, type Stripe, stripeClientOf } from './stripe/stripe-client.ts';
import type { BillingTables } from './tables.ts';

export type Checkout = ReturnType<typeof createCheckout>;

/**
 * Hosted checkout and portal pages. The account's customer is made at the processor on its first purchase
 * and remembered; the session names the account (client_reference_id and metadata), and for a pack its
 * credits, so the webhook knows what was paid for without trusting the browser.
 */
export function createCheckout(db: Database, clock: Clock, config: BillingConfig, appUrl: string) {
  const stripe = stripeClientOf(config);

  const configured = (price: string | null, what: string): { stripe: Stripe; price: string } => {
    if (stripe === null) throw notConfigured('no secret key');
    if (price === null) throw notConfigured(`no price for ${what}`);
    return { stripe, price };
  };

  const customerOf = async (userId: string) =>
    (
      await query<BillingTables>(db.em())
        .selectFrom('billing_customers')
        .select('stripe_customer_id')
        .where('user_id', '=', userId)
        .executeTakeFirst()
    )?.stripe_customer_id ?? null;

  /**
   * The account's customer, made once: two parallel first purchases send the same idempotency key, so the
   * processor answers both with one customer, and the row insert ignores the second.
   */
  const ensureCustomer = async (client: Stripe, userId: string): Promise<string> => {
    const known = await customerOf(userId);
    if (known !== null) return known;
    const account = await query<AccountTables>(db.em())
      .selectFrom('users')
      .select(['email', 'name'])
      .where('id', '=', userId)
      .executeTakeFirst();
    if (!account) throw new AppError('USER_NOT_FOUND', 'User not found');
    const customer = await callStripe(() =>
      client.customers.create(
        { email: account.email, name: account.name, metadata: { userId } },
        { idempotencyKey: `verdict-customer-${userId}` },
      ),
    );
    await query<BillingTables>(db.em())
      .insertInto('billing_customers')
      .values({ user_id: userId, stripe_customer_id: customer.id, created_at: new Date(clock.now()) })
      .onConflict((conflict) => conflict.column('user_id').doNothing())
      .execute();
    return (await customerOf(userId)) ?? customer.id;
  };

  const hosted = (url: string | null): HostedPage => {
    if (url === null) throw new AppError('SERVICE_UNAVAILABLE', 'The payment processor gave no page to open');
    return { url };
  };

  return {
    /** A monthly subscription to a BYOK plan. */
    subscribe: async (userId: string, plan: SubscriptionPlan): Promise<HostedPage> => {
      const { stripe: client, price } = configured(config.prices[plan], plan);
      const customer = await ensureCustomer(client, userId);
      const session = await callStripe(() =>
        client.checkout.sessions.create({
          mode: 'subscription',
          customer,
          client_reference_id: userId,
          line_items: [{ price, quantity: 1 }],
          metadata: { userId, plan },
          subscription_data: { metadata: { userId, plan } },
          success_url: `${appUrl}/billing/success?session_id={CHECKOUT_SESSION_ID}`,
          cancel_url: `${appUrl}/billing`,
        }),
      );
      return hosted(session.url);
    },

    /** A one-time credit pack; its credits are added when the processor confirms the payment. */
    buyCredits: async (userId: string, pack: CreditPack): Promise<HostedPage> => {
      const { stripe: client, price } = configured(config.prices[pack], pack);
      const customer = await ensureCustomer(client, userId);
      const credits = CREDIT_PACKS[pack];
      const session = await callStripe(() =>
        client.checkout.sessions.create({
          mode: 'payment',
          customer,
          client_reference_id: userId,
          line_items: [{ price, quantity: 1 }],
          metadata: { userId, creditPack: pack, creditAmount: String(credits) },
          payment_intent_data: { metadata: { userId, creditPack: pack } },
          success_url: `${appUrl}/billing/success?session_id={CHECKOUT_SESSION_ID}`,
          cancel_url: `${appUrl}/billing`,
        }),
      );
      return hosted(session.url);
    },

    /** The processor's customer portal; only for an account that bought something (checked first). */
    portal: async (userId: string): Promise<HostedPage> => {
      const customer = await customerOf(userId);
      if (customer === null) {
        throw new AppError('NO_PAYMENT_CUSTOMER', 'No purchase yet, so there is no billing portal');
      }
      if (stripe === null) throw notConfigured('no secret key');
      const session = await callStripe(() =>
        stripe.billingPortal.sessions.create({ customer, return_url: `${appUrl}/billing` }),
      );
      return hosted(session.url);
    },
  };
}
