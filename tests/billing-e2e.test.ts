import { type FakeStripe, signStripePayload, startFakeStripe, stripeEvent } from '@verdict/core/testing';
import { type FakeLlmServer, startFakeLlmServer } from '@verdict/engine/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, apiClient, expectBody, registerUser } from './support/api-client.ts';
import { MODES, type Stack, startStack } from './support/stack.ts';

const WEBHOOK_SECRET = 'whsec_e2e_billing';
const PRICES = {
  STRIPE_PRICE_BYOK: 'price_e2e_byok',
  STRIPE_PRICE_BYOK_PRO: 'price_e2e_byok_pro',
  STRIPE_PRICE_CREDITS_100: 'price_e2e_credits_100',
  STRIPE_PRICE_CREDITS_500: 'price_e2e_credits_500',
  STRIPE_PRICE_CREDITS_2000: 'price_e2e_credits_2000',
};

// Billing over HTTP through the client generated from the served document, in each mode: checkout, the
// signed webhook, plan and credits, and debates charged accordingly. The official Stripe SDK in the API talks
// to a local fake Stripe, and events are posted to the webhook signed as Stripe signs them. A BYOK debate's
// provider calls go to a fake LLM server.
describe.each(MODES)('billing end to end (%s): checkout, webhook, plan, credits, charges', (mode) => {
  let stripe: FakeStripe;
  let llm: FakeLlmServer;
  let stack: Stack;
  let anonymous: ApiClient;

  const signUp = async (label: string) => {
    const user = await registerUser(stack.baseUrl, label);
    // The free plan's 10 requests a minute would throttle the test, not what it is about.
    await stack.setRateLimit(user.email, 1000);
    return { ...user, client: apiClient(stack.baseUrl, { cookie: user.cookie }) };
  };
  const balanceOf = async (client: ApiClient) => expectBody(await client.GET('/api/billing/balance'), 200);
  /** Posts an event as Stripe does: its JSON text, with the Stripe-Signature of exactly that text. */
  const deliver = (event: ReturnType<typeof stripeEvent>) =>
    anonymous.POST('/api/billing/webhook', {
      params: { header: { 'Stripe-Signature': signStripePayload(JSON.stringify(event), WEBHOOK_SECRET) } },
      body: event,
    });
  const createDebate = (client: ApiClient, mode: 'fast' | 'thorough', providerKeys?: string) =>
    client.POST('/api/debates', {
      params: { header: providerKeys ? { 'X-Provider-Keys': providerKeys } : {} },
      body: { question: `Should we pay for the ${mode} analysis of this decision?`, mode, skipCache: true },
    });

  /** Creates a debate (201) and answers who pays for it, as the debate reads back. */
  const fundingOf = async (client: ApiClient, mode: 'fast' | 'thorough', providerKeys?: string) => {
    const created = expectBody(await createDebate(client, mode, providerKeys), 201);
    const debate = expectBody(
      await client.GET('/api/debates/{id}', { params: { path: { id: created.debateId } } }),
      200,
    );
    return debate.fundingSource;
  };

  beforeAll(async () => {
    stripe = await startFakeStripe({ amounts: { [PRICES.STRIPE_PRICE_CREDITS_100]: 499 } });
    llm = await startFakeLlmServer();
    stack = await startStack(mode, 'billing', {
      STRIPE_SECRET_KEY: 'sk_test_e2e',
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_URL: stripe.url,
      APP_URL: 'https://app.verdict.test',
      ANTHROPIC_BASE_URL: llm.baseUrls.anthropic,
      ...PRICES,
    });
    anonymous = apiClient(stack.baseUrl);
  });
  afterAll(async () => {
    await stack?.stop();
    await llm?.close();
    await stripe?.close();
  });

  it('buys a credit pack: credits land once (replays change nothing) and pay for the next debate', async () => {
    const buyer = await signUp('buyer');
    // The signup credits pay for one thorough debate (8 of 10); the next one falls to the free tier.
    expect(await fundingOf(buyer.client, 'thorough')).toBe('user_credits');
    expect(await balanceOf(buyer.client)).toEqual({ balance: 2, plan: 'free' });
    expect(await fundingOf(buyer.client, 'thorough')).toBe('free_tier');

    const page = expectBody(
      await buyer.client.POST('/api/billing/credit-checkout', { body: { pack: 'credits_100' } }),
      200,
    );
    expect(page.url).toMatch(/^https:\/\/checkout\.stripe\.test\//);
    const completed = stripeEvent(
      'checkout.session.completed',
      stripe.completeCheckout(stripe.sessionIdOf(page.url)),
    );
    expect(expectBody(await deliver(completed), 200)).toEqual({ received: true, duplicate: false });
    expect(expectBody(await deliver(completed), 200)).toEqual({ received: true, duplicate: true });
    expect(await balanceOf(buyer.client)).toEqual({ balance: 102, plan: 'free' });

    expect(await fundingOf(buyer.client, 'thorough')).toBe('user_credits');
    expect(await balanceOf(buyer.client)).toEqual({ balance: 94, plan: 'free' });

    const invoices = expectBody(await buyer.client.GET('/api/invoices'), 200);
    expect(invoices.total).toBe(1);
    expect(invoices.invoices[0]).toMatchObject({
      type: 'credit_pack',
      amountCents: 499,
      status: 'paid',
      metadata: { creditAmount: 100, creditPack: 'credits_100' },
    });
    const one = expectBody(
      await buyer.client.GET('/api/invoices/{id}', {
        params: { path: { id: invoices.invoices[0]?.id ?? '' } },
      }),
      200,
    );
    expect(one.stripeSessionId).toMatch(/^cs_/);
    const portal = expectBody(await buyer.client.POST('/api/billing/portal-session'), 200);
    expect(portal.url).toMatch(/^https:\/\/billing\.stripe\.test\//);
    // A subscription checkout answers a page of its own (BYOK, monthly only).
    const byok = expectBody(
      await buyer.client.POST('/api/billing/checkout-session', { body: { interval: 'monthly' } }),
      200,
    );
    expect(byok.url).not.toBe(page.url);
  });

  it("keeps a team's invoices apart from its owner's own: the admin sees only what was bought for the team", async () => {
    const owner = await signUp('team-owner');
    const admin = await signUp('team-admin');
    // An opened and abandoned checkout is no purchase: no portal yet.
    expectBody(
      await owner.client.POST('/api/billing/credit-checkout', { body: { pack: 'credits_100' } }),
      200,
    );
    const noPortal = await owner.client.POST('/api/billing/portal-session');
    expect(noPortal.response.status).toBe(400);
    expect(noPortal.error?.error.code).toBe('NO_PAYMENT_CUSTOMER');

    await stack.setPlan(owner.email, 'byok_pro');
    const team = expectBody(
      await owner.client.POST('/api/workspaces', { body: { name: 'Billing team', slug: 'billing-e2e' } }),
      201,
    );
    expectBody(
      await owner.client.POST('/api/workspaces/{id}/members', {
        params: { path: { id: team.id } },
        body: { email: admin.email, role: 'admin' },
      }),
      201,
    );
    const pay = async (body: { pack: 'credits_100'; workspaceId?: string }) => {
      const page = expectBody(await owner.client.POST('/api/billing/credit-checkout', { body }), 200);
      const session = stripe.completeCheckout(stripe.sessionIdOf(page.url));
      expectBody(await deliver(stripeEvent('checkout.session.completed', session)), 200);
    };
    await pay({ pack: 'credits_100' });
    await pay({ pack: 'credits_100', workspaceId: team.id });

    const teams = expectBody(
      await admin.client.GET('/api/invoices', { params: { query: { workspaceId: team.id } } }),
      200,
    );
    expect(teams.invoices.map((invoice) => invoice.workspaceId)).toEqual([team.id]);
    const own = expectBody(await owner.client.GET('/api/invoices'), 200);
    expect(own.invoices.map((invoice) => invoice.workspaceId).sort()).toEqual([null, team.id].sort());
    expectBody(await owner.client.POST('/api/billing/portal-session'), 200);
  });

  it('subscribes to BYOK Pro: the plan changes, debates then need X-Provider-Keys and cost nothing', async () => {
    const subscriber = await signUp('subscriber');
    const page = expectBody(
      await subscriber.client.POST('/api/billing/checkout-session-pro', { body: { interval: 'monthly' } }),
      200,
    );
    const session = stripe.completeCheckout(stripe.sessionIdOf(page.url));
    expectBody(await deliver(stripeEvent('checkout.session.completed', session)), 200);
    expect(await balanceOf(subscriber.client)).toEqual({ balance: 10, plan: 'byok_pro' });

    const withoutKeys = await createDebate(subscriber.client, 'fast');
    expect(withoutKeys.response.status).toBe(400);
    expect(withoutKeys.error?.error.code).toBe('VALIDATION_ERROR');
    const before = llm.count('anthropic');
    expect(await fundingOf(subscriber.client, 'fast', 'anthropic:sk-ant-e2e-own-key')).toBe('byok');
    expect(await balanceOf(subscriber.client)).toEqual({ balance: 10, plan: 'byok_pro' });
    // The debate runs on the subscriber's own key, against the fake provider.
    await expect.poll(() => llm.count('anthropic'), { timeout: 30_000 }).toBeGreaterThan(before);
    expect(llm.requests.at(-1)?.apiKey).toBe('sk-ant-e2e-own-key');

    // Cancelled in the portal and ended by Stripe: back to free, and debates are paid in credits again.
    // One subscription per account: another checkout is refused, changes go through the portal.
    const again = await subscriber.client.POST('/api/billing/checkout-session', {
      body: { interval: 'monthly' },
    });
    expect(again.response.status).toBe(409);
    expect(again.error?.error.code).toBe('CONFLICT');

    const ended = stripe.updateSubscription(session.subscription as string, { status: 'canceled' });
    expectBody(await deliver(stripeEvent('customer.subscription.deleted', ended)), 200);
    expect(await balanceOf(subscriber.client)).toEqual({ balance: 10, plan: 'free' });
    expect(await fundingOf(subscriber.client, 'fast')).toBe('user_credits');
  });
});
