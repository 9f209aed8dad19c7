import { HostedPage, InvoicePage, type Workspace } from '@verdict/contracts';
import { type FakeStripe, startFakeStripe } from '@verdict/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  billingEnv,
  deliver,
  PRICE_AMOUNTS,
  paidCheckout,
  stripeEvent,
} from '../../testing/billing-fixtures.ts';
import {
  expectError,
  type Harness,
  type RequestOptions,
  registerUser,
  startServer,
  type TestUser,
} from '../../testing/http-harness.ts';

const MISSING = '00000000-0000-4000-8000-000000000000';

/**
 * Purchases made for a workspace, end to end through checkout and the signed webhook: the owner pays, the
 * invoice carries the workspace, and the workspace's admins see those invoices and nothing else of the owner's.
 */
describe('invoices of a workspace', () => {
  let fake: FakeStripe;
  let h: Harness;
  let owner: TestUser;
  let admin: TestUser;
  let member: TestUser;
  let stranger: TestUser;
  let workspace: Workspace;

  const as = (user: TestUser): RequestOptions => ({ cookie: user.cookie });
  /** Opens a checkout as `user` and has it paid, delivering its completion; answers the completed session. */
  const buy = async (user: TestUser, path: string, body: object) => {
    const res = await h.request('POST', path, { ...as(user), body });
    expect(res.status, res.text).toBe(200);
    const session = paidCheckout(fake, HostedPage.parse(res.json).url);
    expect((await deliver(h, stripeEvent('checkout.session.completed', session))).status).toBe(200);
    return session;
  };
  const invoices = async (user: TestUser, query = '') => {
    const res = await h.request('GET', `/api/invoices${query}`, as(user));
    expect(res.status, res.text).toBe(200);
    return InvoicePage.parse(res.json).invoices;
  };

  beforeAll(async () => {
    fake = await startFakeStripe({ amounts: PRICE_AMOUNTS });
    h = await startServer({ env: billingEnv(fake) });
    [owner, admin, member, stranger] = await Promise.all([
      registerUser(h),
      registerUser(h),
      registerUser(h),
      registerUser(h),
    ]);
    // Put on BYOK Pro by hand (no subscription yet), so the owner may both own a workspace and subscribe.
    await h.core.accounts.setPlan(owner.session.user.id, 'byok_pro');
    const created = await h.request<Workspace>('POST', '/api/workspaces', {
      ...as(owner),
      body: { name: 'Paid team', slug: 'paid-team' },
    });
    expect(created.status, created.text).toBe(201);
    workspace = created.json;
    for (const [user, role] of [
      [admin, 'admin'],
      [member, 'member'],
    ] as const) {
      const res = await h.request('POST', `/api/workspaces/${workspace.id}/members`, {
        ...as(owner),
        body: { email: user.email, role },
      });
      expect(res.status, res.text).toBe(201);
    }
  }, 60_000);
  afterAll(async () => {
    await h?.close();
    await fake?.close();
  });

  it("shows the workspace's admin the pack bought for it, never the owner's personal pack", async () => {
    const personal = await buy(owner, '/api/billing/credit-checkout', { pack: 'credits_500' });
    const forTeam = await buy(owner, '/api/billing/credit-checkout', {
      pack: 'credits_100',
      workspaceId: workspace.id,
    });
    expect(forTeam.metadata).toMatchObject({ workspaceId: workspace.id });

    const teams = await invoices(admin, `?workspaceId=${workspace.id}`);
    expect(teams.map((i) => [i.type, i.workspaceId, i.metadata.creditPack])).toEqual([
      ['credit_pack', workspace.id, 'credits_100'],
    ]);
    expect(await invoices(owner, `?workspaceId=${workspace.id}`)).toEqual(teams);
    // The owner's own list has both; the admin's own list has neither; the owner paid for both.
    const own = await invoices(owner);
    expect(own.map((i) => i.workspaceId).sort()).toEqual([null, workspace.id].sort());
    expect(own.find((i) => i.workspaceId === null)?.metadata.creditPack).toBe('credits_500');
    expect(await invoices(admin)).toEqual([]);
    expect((await h.core.invoices.balance(owner.session.user.id)).balance).toBe(10 + 500 + 100);
    expect(personal.metadata).not.toHaveProperty('workspaceId');
    // Read by id stays "own invoices only", for the team's invoice too.
    expectError(await h.request('GET', `/api/invoices/${teams[0]?.id}`, as(admin)), 'NOT_FOUND');
  });

  it('attributes every invoice of a BYOK Pro subscription bought for the workspace to it', async () => {
    const session = await buy(owner, '/api/billing/checkout-session-pro', {
      interval: 'monthly',
      workspaceId: workspace.id,
    });
    const paid = fake.invoiceFor(session.subscription as string, 'paid');
    expect((await deliver(h, stripeEvent('invoice.paid', paid))).status).toBe(200);
    const teams = await invoices(admin, `?workspaceId=${workspace.id}`);
    expect(teams.find((i) => i.type === 'subscription')).toMatchObject({
      workspaceId: workspace.id,
      amountCents: 3900,
      metadata: { plan: 'byok_pro' },
    });
  });

  it('lets only the owner buy for the workspace: 403 for an admin, a member or a stranger, 404 for none', async () => {
    const before = fake.requestsTo('POST', '/v1/checkout/sessions').length;
    for (const user of [admin, member, stranger]) {
      for (const [path, body] of [
        ['/api/billing/credit-checkout', { pack: 'credits_100', workspaceId: workspace.id }],
        ['/api/billing/checkout-session-pro', { interval: 'monthly', workspaceId: workspace.id }],
      ] as const) {
        expectError(await h.request('POST', path, { ...as(user), body }), 'FORBIDDEN');
      }
    }
    expectError(
      await h.request('POST', '/api/billing/credit-checkout', {
        ...as(owner),
        body: { pack: 'credits_100', workspaceId: MISSING },
      }),
      'NOT_FOUND',
    );
    expect(fake.requestsTo('POST', '/v1/checkout/sessions')).toHaveLength(before);
  });

  it('refuses a workspaceId on the BYOK checkout (that plan has no workspaces): 400 VALIDATION_ERROR', async () => {
    const error = expectError(
      await h.request('POST', '/api/billing/checkout-session', {
        ...as(owner),
        body: { interval: 'monthly', workspaceId: workspace.id },
      }),
      'VALIDATION_ERROR',
    );
    expect(error.details?.map((d) => d.path)).toEqual(['']);
  });

  it('shows members and strangers no invoices of the workspace: 403', async () => {
    for (const user of [member, stranger]) {
      expectError(await h.request('GET', `/api/invoices?workspaceId=${workspace.id}`, as(user)), 'FORBIDDEN');
    }
  });
});
