import {
  CREDIT_PACKS,
  type CreditPack,
  type HostedPage,
  PLAN_NAMES,
  type SubscriptionPlan,
} from '@verdict/contracts';
import type { AccountTables } from '../accounts/tables.ts';
import type { BillingConfig } from '../config/config.ts';
import { query } from '../db/kysely.ts';
import type { Database } from '../db/orm.ts';
import { AppError } from '../shared/app-error.ts';
import type { Clock } from '../shared/clock.ts';
import { callStripe, notConfigured, type Stripe, stripeClientOf } from './stripe/stripe-client.ts';
import { grantingSubscriptions, isSubscriptionOwned } from './stripe/subscription-sync.ts';
import type { BillingTables } from './tables.ts';

export type Checkout = ReturnType<typeof createCheckout>;

/**
 * Hosted checkout and portal pages. The account's customer is made at the processor on its first checkout
 * and remembered; the session names the account (client_reference_id and metadata), for a pack its credits,
 * and the workspace a purchase is for (the caller owns it: checked by the API before), so the webhook knows
 * what was paid for without trusting the browser.
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
   * The account's customer at the processor, made with its first checkout (which needs one) and kept even
   * if that checkout is abandoned; made once: two parallel first purchases send the same idempotency key, so the
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
  /**
   * One subscription per account: a second would bill twice for one plan (changing plans is the portal's
   * job), and a plan an operator set (starter, pro, enterprise) is not one a subscription can change.
   */
  const assertMaySubscribe = async (userId: string) => {
    const em = db.em();
    const user = await query<AccountTables>(em)
      .selectFrom('users')
      .select('plan')
      .where('id', '=', userId)
      .executeTakeFirst();
    if (!user) throw new AppError('USER_NOT_FOUND', 'User not found');
    if (!isSubscriptionOwned(user.plan)) {
      throw new AppError(
        'CONFLICT',
        `This account is on the ${PLAN_NAMES[user.plan]} plan, set by the operator; a subscription would not change it`,
      );
    }
    if ((await grantingSubscriptions(em, userId, new Date(clock.now()))).length > 0) {
      throw new AppError(
        'CONFLICT',
        'This account already has an active subscription; change or cancel it in the billing portal ' +
          '(POST /api/billing/portal-session)',
      );
    }
  };
  /** Only when there is one: Stripe metadata values are strings, and an absent key says "none". */
  const forWorkspace = (workspaceId: string | null): Record<string, string> =>
    workspaceId === null ? {} : { workspaceId };
  /** A paid pack or a subscription (any invoice, or a subscription the processor reported): a customer. */
  const hasPurchased = async (userId: string) => {
    const k = query<BillingTables>(db.em());
    const [invoice, subscription] = await Promise.all([
      k.selectFrom('invoices').select('id').where('user_id', '=', userId).limit(1).executeTakeFirst(),
      k
        .selectFrom('subscriptions')
        .select('stripe_subscription_id')
        .where('user_id', '=', userId)
        .limit(1)
        .executeTakeFirst(),
    ]);
    return invoice !== undefined || subscription !== undefined;
  };
  return {
    /**
     * A monthly subscription to a BYOK plan; 409 CONFLICT while the account has one that grants its plan,
     * or is on a plan an operator set. `workspaceId`: the workspace (owned by the caller) it pays for.
     */
    subscribe: async (
      userId: string,
      plan: SubscriptionPlan,
      workspaceId: string | null = null,
    ): Promise<HostedPage> => {
      const { stripe: client, price } = configured(config.prices[plan], plan);
      await assertMaySubscribe(userId);
      const customer = await ensureCustomer(client, userId);
      const metadata = { userId, plan, ...forWorkspace(workspaceId) };
      const session = await callStripe(() =>
        client.checkout.sessions.create({
          mode: 'subscription',
          customer,
          client_reference_id: userId,
          line_items: [{ price, quantity: 1 }],
          metadata,
          subscription_data: { metadata },
          success_url: `${appUrl}/billing/success?session_id={CHECKOUT_SESSION_ID}`,
          cancel_url: `${appUrl}/billing`,
        }),
      );
      return hosted(session.url);
    },
    /**
     * A one-time credit pack; its credits are added to the caller's balance when the processor confirms the
     * payment. `workspaceId`: the workspace (owned by the caller) it is bought for; the credits are the
     * owner's either way, and pay for that workspace's debates as for their own.
     */
    buyCredits: async (
      userId: string,
      pack: CreditPack,
      workspaceId: string | null = null,
    ): Promise<HostedPage> => {
      const { stripe: client, price } = configured(config.prices[pack], pack);
      const customer = await ensureCustomer(client, userId);
      const credits = CREDIT_PACKS[pack];
      const session = await callStripe(() =>
        client.checkout.sessions.create({
          mode: 'payment',
          customer,
          client_reference_id: userId,
          line_items: [{ price, quantity: 1 }],
          metadata: {
            userId,
            creditPack: pack,
            creditAmount: String(credits),
            ...forWorkspace(workspaceId),
          },
          payment_intent_data: { metadata: { userId, creditPack: pack } },
          success_url: `${appUrl}/billing/success?session_id={CHECKOUT_SESSION_ID}`,
          cancel_url: `${appUrl}/billing`,
        }),
      );
      return hosted(session.url);
    },
    /**
     * The processor's customer portal; only for an account with a completed purchase (checked first): a
     * checkout opened and abandoned made a customer at the processor, but bought nothing.
     */
    portal: async (userId: string): Promise<HostedPage> => {
      const customer = await customerOf(userId);
      if (customer === null || !(await hasPurchased(userId))) {
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
