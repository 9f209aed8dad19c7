import { randomUUID } from 'node:crypto';
import { BillingBalance, HostedPage, PLAN_NAMES } from '@verdict/contracts';
import { type FakeStripe, startFakeStripe } from '@verdict/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  billingEnv,
  deliver,
  PRICE_AMOUNTS,
  PRICES,
  paidCheckout,
  stripeEvent,
} from '../../testing/billing-fixtures.ts';
import {
  createKey,
  expectError,
  type Harness,
  type RequestOptions,
  registerUser,
  startServer,
  type TestUser,
} from '../../testing/http-harness.ts';

const APP_URL = 'https://app.verdict.test';

const PAYING_ROUTES = [
  ['/api/billing/checkout-session', { interval: 'monthly' }],
  ['/api/billing/checkout-session-pro', { interval: 'monthly' }],
  ['/api/billing/credit-checkout', { pack: 'credits_100' }],
] as const;

describe('billing: checkout, portal and balance', () => {
  let fake: FakeStripe;
  let h: Harness;
  /** No STRIPE_* at all. */
  let bare: Harness;
  /** A key and one price, and a processor that does not answer. */
  let down: Harness;

  const as = (user: TestUser): RequestOptions => ({ cookie: user.cookie });
  const customerOf = async (harness: Harness, user: TestUser) =>
    (
      await harness.core.db.execute<{ stripe_customer_id: string }>(
        'select stripe_customer_id from billing_customers where user_id = ?',
        [user.session.user.id],
      )
    )[0]?.stripe_customer_id;

  beforeAll(async () => {
    fake = await startFakeStripe({ amounts: PRICE_AMOUNTS });
    const gone = await startFakeStripe();
    await gone.close();
    [h, bare, down] = await Promise.all([
      startServer({ env: { ...billingEnv(fake), APP_URL } }),
      startServer(),
      startServer({
        env: {
          STRIPE_SECRET_KEY: 'sk_test_verdict',
          STRIPE_API_URL: gone.url,
          STRIPE_PRICE_CREDITS_100: PRICES.credits_100,
        },
      }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([h?.close(), bare?.close(), down?.close()]);
    await fake?.close();
  });

  describe('POST /api/billing/credit-checkout', () => {
    it('answers 200 with the hosted page of a payment checkout that names the account, the pack and its credits', async () => {
      const alice = await registerUser(h);
      const res = await h.request('POST', '/api/billing/credit-checkout', {
        ...as(alice),
        body: { pack: 'credits_500' },
      });
      expect(res.status, res.text).toBe(200);
      const page = HostedPage.parse(res.json);
      const sent = fake.requestsTo('POST', '/v1/checkout/sessions').at(-1);
      expect(page.url).toContain(fake.sessionIdOf(page.url));
      expect(sent?.params).toMatchObject({
        mode: 'payment',
        customer: await customerOf(h, alice),
        client_reference_id: alice.session.user.id,
        line_items: [{ price: PRICES.credits_500, quantity: '1' }],
        metadata: { userId: alice.session.user.id, creditPack: 'credits_500', creditAmount: '500' },
        success_url: `${APP_URL}/billing/success?session_id={CHECKOUT_SESSION_ID}`,
        cancel_url: `${APP_URL}/billing`,
      });
      expect(sent?.authorization).toBe('Bearer sk_test_verdict');
    });

    it.each([
      ['no pack', {}, 'pack'],
      ['an unknown pack', { pack: 'credits_42' }, 'pack'],
      ['a pack as a number', { pack: 100 }, 'pack'],
      ['an unknown field', { pack: 'credits_100', coupon: 'FREE' }, ''],
    ])('refuses %s: 400 VALIDATION_ERROR', async (_label, body, path) => {
      const alice = await registerUser(h);
      const error = expectError(
        await h.request('POST', '/api/billing/credit-checkout', { ...as(alice), body }),
        'VALIDATION_ERROR',
      );
      expect((error.details ?? []).map((d) => d.path)).toEqual([path]);
    });
  });

  describe('POST /api/billing/checkout-session and checkout-session-pro', () => {
    it.each([
      ['/api/billing/checkout-session', PRICES.byok, 'byok'],
      ['/api/billing/checkout-session-pro', PRICES.byok_pro, 'byok_pro'],
    ])('%s opens a subscription checkout for its plan', async (path, price, plan) => {
      const alice = await registerUser(h);
      const res = await h.request('POST', path, { ...as(alice), body: { interval: 'monthly' } });
      expect(res.status, res.text).toBe(200);
      HostedPage.parse(res.json);
      expect(fake.requestsTo('POST', '/v1/checkout/sessions').at(-1)?.params).toMatchObject({
        mode: 'subscription',
        client_reference_id: alice.session.user.id,
        line_items: [{ price, quantity: '1' }],
        metadata: { userId: alice.session.user.id, plan },
        subscription_data: { metadata: { userId: alice.session.user.id, plan } },
      });
    });

    it.each([
      ['no interval', {}],
      ['a yearly interval', { interval: 'yearly' }],
      ['an annual interval', { interval: 'annual' }],
    ])('refuses %s: 400 VALIDATION_ERROR naming interval', async (_label, body) => {
      const alice = await registerUser(h);
      for (const path of ['/api/billing/checkout-session', '/api/billing/checkout-session-pro']) {
        const error = expectError(await h.request('POST', path, { ...as(alice), body }), 'VALIDATION_ERROR');
        expect((error.details ?? []).map((d) => d.path)).toEqual(['interval']);
      }
    });

    it('works with an API key as well as a session', async () => {
      const alice = await registerUser(h);
      const key = await createKey(h, alice);
      const res = await h.request('POST', '/api/billing/checkout-session', {
        key: key.key,
        body: { interval: 'monthly' },
      });
      expect(res.status, res.text).toBe(200);
    });
  });

  describe('the payment customer', () => {
    it('is made at the first checkout and reused by the next ones', async () => {
      const alice = await registerUser(h);
      const before = fake.requestsTo('POST', '/v1/customers').length;
      for (const [path, body] of PAYING_ROUTES) {
        expect((await h.request('POST', path, { ...as(alice), body })).status).toBe(200);
      }
      expect(fake.requestsTo('POST', '/v1/customers').length).toBe(before + 1);
      const customer = await customerOf(h, alice);
      const sessions = fake.requestsTo('POST', '/v1/checkout/sessions').slice(-3);
      expect(sessions.map((s) => s.params.customer)).toEqual([customer, customer, customer]);
      expect(fake.customers.get(customer ?? '')).toMatchObject({ email: alice.email });
    });

    it('is one customer even when two first purchases run at once', async () => {
      const alice = await registerUser(h);
      const results = await Promise.all(
        [0, 1, 2].map(() =>
          h.request('POST', '/api/billing/credit-checkout', { ...as(alice), body: { pack: 'credits_100' } }),
        ),
      );
      expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
      const customer = await customerOf(h, alice);
      const sessions = fake.requestsTo('POST', '/v1/checkout/sessions').slice(-3);
      expect(sessions.map((s) => s.params.customer)).toEqual([customer, customer, customer]);
      const made = [...fake.customers.values()].filter(
        (c) => (c.metadata as { userId?: string }).userId === alice.session.user.id,
      );
      expect(made).toHaveLength(1);
    });
  });

  describe('POST /api/billing/portal-session', () => {
    /** Opens a checkout on `path` and answers its hosted page. */
    const open = async (user: TestUser, path: string, body: object) => {
      const res = await h.request('POST', path, { ...as(user), body });
      expect(res.status, res.text).toBe(200);
      return HostedPage.parse(res.json).url;
    };

    it('answers 400 NO_PAYMENT_CUSTOMER before any purchase', async () => {
      const alice = await registerUser(h);
      expectError(await h.request('POST', '/api/billing/portal-session', as(alice)), 'NO_PAYMENT_CUSTOMER');
    });

    it('still answers 400 NO_PAYMENT_CUSTOMER after checkouts opened and abandoned, though a customer exists', async () => {
      const alice = await registerUser(h);
      for (const [path, body] of PAYING_ROUTES) await open(alice, path, body);
      expect(await customerOf(h, alice)).toMatch(/^cus_/);
      expectError(await h.request('POST', '/api/billing/portal-session', as(alice)), 'NO_PAYMENT_CUSTOMER');
      // A checkout completed but not paid yet (an asynchronous payment method) is not a purchase either.
      const unpaid = {
        ...paidCheckout(fake, await open(alice, ...PAYING_ROUTES[2])),
        payment_status: 'unpaid',
      };
      await deliver(h, stripeEvent('checkout.session.completed', unpaid));
      expectError(await h.request('POST', '/api/billing/portal-session', as(alice)), 'NO_PAYMENT_CUSTOMER');
    });

    it.each([
      ['a credit pack', 2],
      ['a subscription', 0],
    ] as const)(
      "answers the processor's portal page for the account's customer once %s is paid",
      async (_what, index) => {
        const alice = await registerUser(h);
        const [path, body] = PAYING_ROUTES[index];
        const completed = paidCheckout(fake, await open(alice, path, body));
        expect((await deliver(h, stripeEvent('checkout.session.completed', completed))).status).toBe(200);
        const res = await h.request('POST', '/api/billing/portal-session', as(alice));
        expect(res.status, res.text).toBe(200);
        expect(HostedPage.parse(res.json).url).toMatch(/^https:\/\/billing\.stripe\.test\//);
        expect(fake.requestsTo('POST', '/v1/billing_portal/sessions').at(-1)?.params).toEqual({
          customer: await customerOf(h, alice),
          return_url: `${APP_URL}/billing`,
        });
      },
    );
  });

  describe('one subscription per account', () => {
    const subscribe = (user: TestUser, path = '/api/billing/checkout-session-pro') =>
      h.request('POST', path, { ...as(user), body: { interval: 'monthly' } });

    it('refuses another subscription checkout with 409 CONFLICT pointing at the portal while one is active', async () => {
      const alice = await registerUser(h);
      const first = await subscribe(alice, '/api/billing/checkout-session');
      const session = paidCheckout(fake, HostedPage.parse(first.json).url);
      await deliver(h, stripeEvent('checkout.session.completed', session));
      const before = fake.requestsTo('POST', '/v1/checkout/sessions').length;
      for (const path of ['/api/billing/checkout-session', '/api/billing/checkout-session-pro']) {
        const error = expectError(await subscribe(alice, path), 'CONFLICT');
        expect(error.message).toMatch(/portal/);
      }
      // Nothing was opened at the processor, and packs are still for sale.
      expect(fake.requestsTo('POST', '/v1/checkout/sessions')).toHaveLength(before);
      expect(
        (
          await h.request('POST', '/api/billing/credit-checkout', {
            ...as(alice),
            body: { pack: 'credits_100' },
          })
        ).status,
      ).toBe(200);
      // Cancelled at the period's end it still grants the plan, so it still counts; ended, it does not.
      const id = session.subscription as string;
      await deliver(
        h,
        stripeEvent(
          'customer.subscription.updated',
          fake.updateSubscription(id, { cancelAtPeriodEnd: true }),
        ),
      );
      expectError(await subscribe(alice), 'CONFLICT');
      await deliver(
        h,
        stripeEvent('customer.subscription.deleted', fake.updateSubscription(id, { status: 'canceled' })),
      );
      expect((await subscribe(alice)).status).toBe(200);
    });

    it('lets an account whose only subscription never started (incomplete) try again', async () => {
      const alice = await registerUser(h);
      const session = paidCheckout(fake, HostedPage.parse((await subscribe(alice)).json).url);
      const id = session.subscription as string;
      await deliver(
        h,
        stripeEvent('customer.subscription.created', fake.updateSubscription(id, { status: 'incomplete' })),
      );
      expect((await subscribe(alice)).status).toBe(200);
    });

    it.each(['starter', 'pro', 'enterprise'] as const)(
      'refuses a subscription checkout with 409 CONFLICT on the %s plan an operator set, packs still sell',
      async (plan) => {
        const alice = await registerUser(h);
        await h.core.accounts.setPlan(alice.session.user.id, plan);
        // The plan by the name the price table gives it.
        expect(expectError(await subscribe(alice), 'CONFLICT').message).toContain(
          `the ${PLAN_NAMES[plan]} plan`,
        );
        const pack = await h.request('POST', '/api/billing/credit-checkout', {
          ...as(alice),
          body: { pack: 'credits_100' },
        });
        expect(pack.status, pack.text).toBe(200);
      },
    );
  });

  describe('without configuration', () => {
    it.each(PAYING_ROUTES)('%s answers 503 BILLING_NOT_CONFIGURED', async (path, body) => {
      const alice = await registerUser(bare);
      expectError(await bare.request('POST', path, { ...as(alice), body }), 'BILLING_NOT_CONFIGURED');
    });

    it('still validates the body first: 400 for a bad pack', async () => {
      const alice = await registerUser(bare);
      expectError(
        await bare.request('POST', '/api/billing/credit-checkout', { ...as(alice), body: { pack: 'x' } }),
        'VALIDATION_ERROR',
      );
    });

    it('answers the portal 400 NO_PAYMENT_CUSTOMER without a purchase, 503 after one', async () => {
      const alice = await registerUser(bare);
      expectError(
        await bare.request('POST', '/api/billing/portal-session', as(alice)),
        'NO_PAYMENT_CUSTOMER',
      );
      await bare.core.db.execute(
        'insert into billing_customers (user_id, stripe_customer_id) values (?, ?)',
        [alice.session.user.id, 'cus_configured_elsewhere'],
      );
      expectError(
        await bare.request('POST', '/api/billing/portal-session', as(alice)),
        'NO_PAYMENT_CUSTOMER',
      );
      await bare.core.db.execute(
        `insert into invoices (user_id, type, description, amount_cents, currency, status, metadata)
         values (?, 'credit_pack', '100 credits', 499, 'usd', 'paid', '{}')`,
        [alice.session.user.id],
      );
      expectError(
        await bare.request('POST', '/api/billing/portal-session', as(alice)),
        'BILLING_NOT_CONFIGURED',
      );
    });

    it('keeps the rest working: balance and invoices answer', async () => {
      const alice = await registerUser(bare);
      const balance = await bare.request('GET', '/api/billing/balance', as(alice));
      expect(BillingBalance.parse(balance.json)).toEqual({ balance: 10, plan: 'free' });
      expect((await bare.request('GET', '/api/invoices', as(alice))).status).toBe(200);
    });

    it('answers the webhook 503 BILLING_NOT_CONFIGURED', async () => {
      const res = await bare.request('POST', '/api/billing/webhook', {
        rawBody: '{}',
        headers: { 'stripe-signature': 't=1,v1=00' },
      });
      expectError(res, 'BILLING_NOT_CONFIGURED');
    });

    it('answers 503 BILLING_NOT_CONFIGURED for a product without a price, with a key configured', async () => {
      const alice = await registerUser(down);
      for (const [path, body] of PAYING_ROUTES.slice(0, 2)) {
        expectError(await down.request('POST', path, { ...as(alice), body }), 'BILLING_NOT_CONFIGURED');
      }
      expectError(
        await down.request('POST', '/api/billing/credit-checkout', {
          ...as(alice),
          body: { pack: 'credits_500' },
        }),
        'BILLING_NOT_CONFIGURED',
      );
    });
  });

  it('answers 503 SERVICE_UNAVAILABLE, saying nothing of the cause, when the processor does not answer', async () => {
    const alice = await registerUser(down);
    const res = await down.request('POST', '/api/billing/credit-checkout', {
      ...as(alice),
      body: { pack: 'credits_100' },
    });
    const error = expectError(res, 'SERVICE_UNAVAILABLE');
    expect(error.message).not.toMatch(/127\.0\.0\.1|ECONNREFUSED|stripe/i);
    expect(await customerOf(down, alice)).toBeUndefined();
  });

  describe('GET /api/billing/balance', () => {
    it('reads the balance and plan fresh: a grant and a plan change show at once', async () => {
      const alice = await registerUser(h);
      const read = async () =>
        BillingBalance.parse((await h.request('GET', '/api/billing/balance', as(alice))).json);
      expect(await read()).toEqual({ balance: 10, plan: 'free' });
      await h.core.billing.grantCredits(alice.session.user.id, 7);
      await h.core.accounts.setPlan(alice.session.user.id, 'byok');
      expect(await read()).toEqual({ balance: 17, plan: 'byok' });
    });

    it('is refused USER_NOT_FOUND when the account row is gone', async () => {
      await expect(h.core.invoices.balance(randomUUID())).rejects.toMatchObject({ code: 'USER_NOT_FOUND' });
    });
  });

  it.each([
    ['POST', '/api/billing/checkout-session'],
    ['POST', '/api/billing/checkout-session-pro'],
    ['POST', '/api/billing/credit-checkout'],
    ['POST', '/api/billing/portal-session'],
    ['GET', '/api/billing/balance'],
    ['GET', '/api/invoices'],
    ['GET', `/api/invoices/${randomUUID()}`],
  ])('%s %s answers 401 UNAUTHORIZED without credentials', async (method, path) => {
    expectError(await h.request(method, path, method === 'POST' ? { body: {} } : {}), 'UNAUTHORIZED');
  });
});
