import { BillingBalance, HostedPage } from '@verdict/contracts';
import {
  auditTrailOf,
  type FakeStripe,
  signStripePayload,
  startFakeStripe,
  stripeEvent,
} from '@verdict/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  billingEnv,
  deliver,
  PRICE_AMOUNTS,
  PRICES,
  WEBHOOK_SECRET,
} from '../../testing/billing-fixtures.ts';
import {
  expectError,
  type Harness,
  registerUser,
  startServer,
  type TestUser,
} from '../../testing/http-harness.ts';

describe('POST /api/billing/webhook', () => {
  let fake: FakeStripe;
  let h: Harness;

  const balanceOf = async (user: TestUser) =>
    BillingBalance.parse((await h.request('GET', '/api/billing/balance', { cookie: user.cookie })).json);

  const checkout = async (user: TestUser, path: string, body: object) => {
    const res = await h.request('POST', path, { cookie: user.cookie, body });
    expect(res.status, res.text).toBe(200);
    return fake.completeCheckout(fake.sessionIdOf(HostedPage.parse(res.json).url));
  };
  const packCheckout = (user: TestUser, pack = 'credits_100') =>
    checkout(user, '/api/billing/credit-checkout', { pack });
  const proCheckout = (user: TestUser) =>
    checkout(user, '/api/billing/checkout-session-pro', { interval: 'monthly' });

  const ledgerOf = (user: TestUser) =>
    h.core.db.execute<{ delta: number; reason: string }>(
      'select delta, reason from credit_ledger where user_id = ? order by created_at',
      [user.session.user.id],
    );
  const invoicesOf = async (user: TestUser) =>
    (
      await h.request<{ invoices: Record<string, unknown>[] }>('GET', '/api/invoices', {
        cookie: user.cookie,
      })
    ).json.invoices;

  beforeAll(async () => {
    fake = await startFakeStripe({ amounts: PRICE_AMOUNTS });
    h = await startServer({ env: billingEnv(fake) });
  });
  afterAll(async () => {
    await h?.close();
    await fake?.close();
  });

  describe('signature', () => {
    const event = () => stripeEvent('customer.created', { id: 'cus_x', object: 'customer' });

    it('refuses a delivery without Stripe-Signature: 400 VALIDATION_ERROR', async () => {
      const res = await h.request('POST', '/api/billing/webhook', { rawBody: JSON.stringify(event()) });
      const error = expectError(res, 'VALIDATION_ERROR');
      expect(error.details?.map((d) => d.path)).toEqual(['Stripe-Signature']);
    });

    it('refuses one signed with another secret', async () => {
      expectError(await deliver(h, event(), 'whsec_someone_else'), 'VALIDATION_ERROR');
    });

    it('refuses a body changed after signing, even only in its whitespace', async () => {
      const payload = JSON.stringify(event());
      const res = await h.request('POST', '/api/billing/webhook', {
        rawBody: `${payload} `,
        headers: { 'stripe-signature': signStripePayload(payload, WEBHOOK_SECRET) },
      });
      expectError(res, 'VALIDATION_ERROR');
    });

    it('refuses a signature older than the tolerance (a captured delivery replayed later)', async () => {
      const payload = JSON.stringify(event());
      const stale = signStripePayload(payload, WEBHOOK_SECRET, Math.floor(Date.now() / 1000) - 3600);
      const res = await h.request('POST', '/api/billing/webhook', {
        rawBody: payload,
        headers: { 'stripe-signature': stale },
      });
      expectError(res, 'VALIDATION_ERROR');
    });

    it('takes the raw bytes whatever the content type says, and acknowledges an event type it ignores', async () => {
      const payload = JSON.stringify(event());
      const res = await h.request('POST', '/api/billing/webhook', {
        rawBody: payload,
        contentType: 'text/plain',
        headers: { 'stripe-signature': signStripePayload(payload, WEBHOOK_SECRET) },
      });
      expect(res.status, res.text).toBe(200);
      expect(res.json).toEqual({ received: true, duplicate: false });
    });

    it('answers 405 with Allow for another method', async () => {
      const res = await h.request('GET', '/api/billing/webhook');
      expectError(res, 'METHOD_NOT_ALLOWED');
      expect(res.headers.get('allow')).toBe('POST');
    });
  });

  describe('credit packs', () => {
    it('adds the credits once, however often the completion is delivered, and records the purchase', async () => {
      const alice = await registerUser(h);
      const session = await packCheckout(alice, 'credits_500');
      const completed = stripeEvent('checkout.session.completed', session);
      expect((await deliver(h, completed)).json).toEqual({ received: true, duplicate: false });
      expect((await deliver(h, completed)).json).toEqual({ received: true, duplicate: true });
      // The same session under another event id (Stripe's async success, or a resent event) adds nothing.
      await deliver(h, stripeEvent('checkout.session.async_payment_succeeded', session));
      expect(await balanceOf(alice)).toEqual({ balance: 510, plan: 'free' });
      expect(await ledgerOf(alice)).toEqual([
        { delta: 10, reason: 'signup' },
        { delta: 500, reason: 'purchase' },
      ]);
      const [invoice] = await invoicesOf(alice);
      expect(invoice).toMatchObject({
        type: 'credit_pack',
        amountCents: 1999,
        currency: 'usd',
        status: 'paid',
        metadata: { creditAmount: 500, creditPack: 'credits_500' },
      });
      const detail = await h.request('GET', `/api/invoices/${invoice?.id}`, { cookie: alice.cookie });
      expect(detail.json).toMatchObject({
        stripeSessionId: session.id,
        stripePaymentIntentId: session.payment_intent,
        stripeInvoiceId: null,
      });
    });

    it('adds the credits once when the same event arrives twice at the same moment', async () => {
      const alice = await registerUser(h);
      const completed = stripeEvent('checkout.session.completed', await packCheckout(alice));
      const answers = await Promise.all([
        deliver(h, completed),
        deliver(h, completed),
        deliver(h, completed),
      ]);
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
      expect(answers.filter((a) => a.json.duplicate === false)).toHaveLength(1);
      expect((await balanceOf(alice)).balance).toBe(110);
    });

    it('adds nothing for a session not yet paid (an asynchronous payment method)', async () => {
      const alice = await registerUser(h);
      const session = { ...(await packCheckout(alice)), payment_status: 'unpaid' };
      await deliver(h, stripeEvent('checkout.session.completed', session));
      expect((await balanceOf(alice)).balance).toBe(10);
      expect(await invoicesOf(alice)).toEqual([]);
    });

    it('acknowledges an event of a customer it does not know and changes nothing', async () => {
      const alice = await registerUser(h);
      const session = await packCheckout(alice);
      const stranger = { ...session, customer: 'cus_unknown', client_reference_id: null, metadata: {} };
      expect((await deliver(h, stripeEvent('checkout.session.completed', stranger))).status).toBe(200);
      expect((await balanceOf(alice)).balance).toBe(10);
    });
  });

  describe('audit trail', () => {
    it("records the credits and the plan an event changes as the processor's, once however often it comes", async () => {
      const alice = await registerUser(h);
      const pack = await packCheckout(alice, 'credits_500');
      const completed = stripeEvent('checkout.session.completed', pack);
      await deliver(h, completed);
      await deliver(h, completed);
      await deliver(h, stripeEvent('checkout.session.async_payment_succeeded', pack));
      const subscription = await proCheckout(alice);
      await deliver(h, stripeEvent('checkout.session.completed', subscription));
      await deliver(
        h,
        stripeEvent('invoice.paid', fake.invoiceFor(subscription.subscription as string, 'paid')),
      );
      const entries = (await auditTrailOf(h.core.db, { accountId: alice.session.user.id })).filter(
        (entry) => entry.actor_id === 'stripe',
      );
      expect(entries.map((entry) => [entry.action, entry.actor_kind, entry.changes])).toEqual([
        [
          'account.credit_grant',
          'system',
          {
            creditBalance: { before: 10, after: 510 },
            amount: { before: null, after: 500 },
            reason: { before: null, after: 'purchase' },
          },
        ],
        ['account.plan_change', 'system', { plan: { before: 'free', after: 'byok_pro' } }],
      ]);
      expect(entries[0]).toMatchObject({ ip: '127.0.0.1', request_id: expect.any(String) });
    });
  });

  describe('subscriptions', () => {
    it('sets the plan on a completed subscription checkout, and records the paid invoice', async () => {
      const alice = await registerUser(h);
      const session = await proCheckout(alice);
      await deliver(h, stripeEvent('checkout.session.completed', session));
      expect(await balanceOf(alice)).toEqual({ balance: 10, plan: 'byok_pro' });
      const invoice = fake.invoiceFor(session.subscription as string, 'paid');
      await deliver(h, stripeEvent('invoice.paid', invoice));
      const [row] = await invoicesOf(alice);
      expect(row).toMatchObject({
        type: 'subscription',
        status: 'paid',
        amountCents: 3900,
        stripeInvoiceUrl: invoice.hosted_invoice_url,
        metadata: { plan: 'byok_pro' },
      });
      const detail = await h.request('GET', `/api/invoices/${row?.id}`, { cookie: alice.cookie });
      expect(detail.json).toMatchObject({ stripeInvoiceId: invoice.id, stripeSessionId: null });
      // BYOK plans have no monthly credits: the ledger shows only the signup.
      expect(await ledgerOf(alice)).toEqual([{ delta: 10, reason: 'signup' }]);
    });

    it('converges when the invoice is paid before the checkout completion arrives', async () => {
      const alice = await registerUser(h);
      const session = await proCheckout(alice);
      await deliver(h, stripeEvent('invoice.paid', fake.invoiceFor(session.subscription as string, 'paid')));
      expect((await balanceOf(alice)).plan).toBe('byok_pro');
      await deliver(h, stripeEvent('checkout.session.completed', session));
      expect((await balanceOf(alice)).plan).toBe('byok_pro');
      expect(await invoicesOf(alice)).toHaveLength(1);
    });

    it('keeps a plan cancelled at period end until the end, then goes free', async () => {
      const alice = await registerUser(h);
      const session = await proCheckout(alice);
      const id = session.subscription as string;
      await deliver(h, stripeEvent('checkout.session.completed', session));
      const cancelled = fake.updateSubscription(id, { cancelAtPeriodEnd: true });
      await deliver(h, stripeEvent('customer.subscription.updated', cancelled));
      expect((await balanceOf(alice)).plan).toBe('byok_pro');
      const ended = fake.updateSubscription(id, { status: 'canceled' });
      await deliver(h, stripeEvent('customer.subscription.deleted', ended));
      expect(await balanceOf(alice)).toEqual({ balance: 10, plan: 'free' });
    });

    it('goes free when an event arrives after the end of a period that was cancelled at its end', async () => {
      const alice = await registerUser(h);
      const session = await proCheckout(alice);
      await deliver(h, stripeEvent('checkout.session.completed', session));
      const past = Math.floor(Date.now() / 1000) - 60;
      const lapsed = fake.updateSubscription(session.subscription as string, {
        cancelAtPeriodEnd: true,
        currentPeriodEnd: past,
      });
      await deliver(h, stripeEvent('customer.subscription.updated', lapsed));
      expect((await balanceOf(alice)).plan).toBe('free');
    });

    it('converges on the processor state whatever the order: created after updated, a stale update after deletion', async () => {
      const alice = await registerUser(h);
      const session = await proCheckout(alice);
      const id = session.subscription as string;
      const created = fake.subscription(id);
      const switched = fake.updateSubscription(id, { price: PRICES.byok });
      await deliver(h, stripeEvent('customer.subscription.updated', switched));
      await deliver(h, stripeEvent('customer.subscription.created', created));
      expect((await balanceOf(alice)).plan).toBe('byok');
      const deleted = fake.updateSubscription(id, { status: 'canceled' });
      await deliver(h, stripeEvent('customer.subscription.deleted', deleted));
      await deliver(h, stripeEvent('customer.subscription.updated', switched));
      await deliver(h, stripeEvent('checkout.session.completed', session));
      expect((await balanceOf(alice)).plan).toBe('free');
    });

    it('keeps a paid invoice paid when a failed attempt of it is delivered late', async () => {
      const alice = await registerUser(h);
      const session = await proCheckout(alice);
      const id = session.subscription as string;
      const failed = fake.invoiceFor(id, 'open');
      await deliver(h, stripeEvent('invoice.payment_failed', failed));
      expect((await invoicesOf(alice))[0]).toMatchObject({ status: 'open', amountCents: 3900 });
      await deliver(h, stripeEvent('invoice.paid', fake.invoiceFor(id, 'paid', failed.id as string)));
      await deliver(h, stripeEvent('invoice.payment_failed', failed));
      const rows = await invoicesOf(alice);
      expect(rows.map((row) => row.status)).toEqual(['paid']);
    });

    it('leaves an operator-set plan alone when a subscription ends', async () => {
      const alice = await registerUser(h);
      const session = await proCheckout(alice);
      await h.core.accounts.setPlan(alice.session.user.id, 'enterprise');
      const ended = fake.updateSubscription(session.subscription as string, { status: 'canceled' });
      await deliver(h, stripeEvent('customer.subscription.deleted', ended));
      expect((await balanceOf(alice)).plan).toBe('enterprise');
    });

    it("applies an account's other events while one waits on a slow processor read", async () => {
      const alice = await registerUser(h);
      const session = await proCheckout(alice);
      const pack = await packCheckout(alice);
      const held = fake.holdSubscriptionReads();
      try {
        const slow = deliver(h, stripeEvent('checkout.session.completed', session));
        for (let i = 0; i < 500 && held.waiting() === 0; i++) await new Promise((r) => setTimeout(r, 10));
        expect(held.waiting()).toBe(1);
        // The same account's pack purchase needs no read: it is applied at once, not after the slow one.
        const fast = deliver(h, stripeEvent('checkout.session.completed', pack));
        const answered = await Promise.race([
          fast.then((res) => res.status),
          new Promise((resolve) => setTimeout(() => resolve('still waiting after 5 s'), 5000)),
        ]);
        expect(answered).toBe(200);
        expect((await balanceOf(alice)).balance).toBe(110);
        held.release();
        expect((await slow).status).toBe(200);
      } finally {
        held.release();
      }
      expect((await balanceOf(alice)).plan).toBe('byok_pro');
    });

    it('answers 503 and records nothing when the processor cannot be read, so the redelivery applies it', async () => {
      const alice = await registerUser(h);
      const session = await proCheckout(alice);
      const orphan = { ...session, subscription: 'sub_missing_at_processor' };
      const event = stripeEvent('checkout.session.completed', orphan);
      expectError(await deliver(h, event), 'SERVICE_UNAVAILABLE');
      const recorded = await h.core.db.execute('select id from stripe_events where id = ?', [event.id]);
      expect(recorded).toEqual([]);
      const redelivered = stripeEvent('checkout.session.completed', session, event.id);
      expect((await deliver(h, redelivered)).json).toEqual({ received: true, duplicate: false });
      expect((await balanceOf(alice)).plan).toBe('byok_pro');
    });
  });
});
