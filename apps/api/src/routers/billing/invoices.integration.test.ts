import { randomUUID } from 'node:crypto';
import { InvoiceDetail, InvoicePage } from '@verdict/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createKey,
  expectError,
  type Harness,
  registerUser,
  startServer,
  type TestUser,
} from '../../testing/http-harness.ts';

const WORKSPACE = '6f1c1d9e-8a51-4a8e-9d53-2f0d7f1a0b11';

describe('invoices', () => {
  let h: Harness;
  let alice: TestUser;
  let bob: TestUser;
  /** Alice's invoices, oldest first. */
  const aliceInvoices: string[] = [];

  const insertInvoice = async (
    user: TestUser,
    fields: { createdAt: string; workspaceId?: string; sessionId: string; amount: number },
  ) => {
    const [row] = await h.core.db.execute<{ id: string }>(
      `insert into invoices (user_id, workspace_id, type, description, amount_cents, currency, status,
         stripe_session_id, stripe_payment_intent_id, metadata, created_at)
       values (?, ?, 'credit_pack', '100 credits', ?, 'usd', 'paid', ?, ?, ?::jsonb, ?) returning id`,
      [
        user.session.user.id,
        fields.workspaceId ?? null,
        fields.amount,
        fields.sessionId,
        `pi_${fields.sessionId}`,
        JSON.stringify({ creditAmount: 100, creditPack: 'credits_100' }),
        fields.createdAt,
      ],
    );
    return row?.id ?? '';
  };

  const list = async (user: TestUser, query = '') => {
    const res = await h.request('GET', `/api/invoices${query}`, { cookie: user.cookie });
    expect(res.status, res.text).toBe(200);
    return InvoicePage.parse(res.json);
  };

  beforeAll(async () => {
    h = await startServer();
    [alice, bob] = await Promise.all([registerUser(h), registerUser(h)]);
    for (let i = 0; i < 5; i++) {
      aliceInvoices.push(
        await insertInvoice(alice, {
          createdAt: `2026-0${i + 1}-15T10:00:00.000Z`,
          sessionId: `cs_alice_${i}`,
          amount: 499 + i,
          ...(i % 2 === 0 ? { workspaceId: WORKSPACE } : {}),
        }),
      );
    }
    await insertInvoice(bob, { createdAt: '2026-03-01T00:00:00.000Z', sessionId: 'cs_bob', amount: 499 });
  });
  afterAll(async () => {
    await h.close();
  });

  describe('GET /api/invoices', () => {
    it("lists the caller's own invoices newest first, 20 a page by default", async () => {
      const page = await list(alice);
      expect(page.invoices.map((invoice) => invoice.id)).toEqual([...aliceInvoices].reverse());
      expect(page).toMatchObject({ page: 1, limit: 20, total: 5, totalPages: 1 });
      expect(page.invoices[0]).toEqual({
        id: aliceInvoices[4],
        type: 'credit_pack',
        description: '100 credits',
        amountCents: 503,
        currency: 'usd',
        status: 'paid',
        workspaceId: WORKSPACE,
        stripeInvoiceUrl: null,
        stripeReceiptUrl: null,
        metadata: { creditAmount: 100, creditPack: 'credits_100' },
        createdAt: '2026-05-15T10:00:00.000Z',
      });
    });

    it('pages by page and limit', async () => {
      const second = await list(alice, '?page=2&limit=2');
      expect(second.invoices.map((invoice) => invoice.id)).toEqual([aliceInvoices[2], aliceInvoices[1]]);
      expect(second).toMatchObject({ page: 2, limit: 2, total: 5, totalPages: 3 });
      const beyond = await list(alice, '?page=4&limit=2');
      expect(beyond.invoices).toEqual([]);
      expect(beyond.total).toBe(5);
    });

    it('takes a limit of 50 and refuses 51, 0, page 0 and a workspaceId that is not a UUID', async () => {
      expect((await list(alice, '?limit=50')).limit).toBe(50);
      for (const [query, path] of [
        ['?limit=51', 'limit'],
        ['?limit=0', 'limit'],
        ['?page=0', 'page'],
        ['?limit=', 'limit'],
        ['?workspaceId=team-a', 'workspaceId'],
      ]) {
        const res = await h.request('GET', `/api/invoices${query}`, { cookie: alice.cookie });
        const error = expectError(res, 'VALIDATION_ERROR');
        expect(
          error.details?.map((d) => d.path),
          query,
        ).toEqual([path]);
      }
    });

    it('with workspaceId, needs a workspace the caller administers (workspaces.integration.test.ts has the rest)', async () => {
      const res = await h.request('GET', `/api/invoices?workspaceId=${WORKSPACE}`, { cookie: alice.cookie });
      expectError(res, 'NOT_FOUND');
    });

    it('answers an account without invoices with an empty page', async () => {
      const carol = await registerUser(h);
      expect(await list(carol)).toEqual({ invoices: [], page: 1, limit: 20, total: 0, totalPages: 0 });
    });
  });

  describe('GET /api/invoices/{id}', () => {
    it("reads one of the caller's invoices with the processor's identifiers, by session or key", async () => {
      const key = await createKey(h, alice);
      const res = await h.request('GET', `/api/invoices/${aliceInvoices[1]}`, { key: key.key });
      expect(res.status, res.text).toBe(200);
      expect(InvoiceDetail.parse(res.json)).toMatchObject({
        id: aliceInvoices[1],
        workspaceId: null,
        stripeSessionId: 'cs_alice_1',
        stripePaymentIntentId: 'pi_cs_alice_1',
        stripeInvoiceId: null,
      });
    });

    it("answers 404 NOT_FOUND for another account's invoice and for a missing one", async () => {
      expectError(
        await h.request('GET', `/api/invoices/${aliceInvoices[0]}`, { cookie: bob.cookie }),
        'NOT_FOUND',
      );
      expectError(
        await h.request('GET', `/api/invoices/${randomUUID()}`, { cookie: alice.cookie }),
        'NOT_FOUND',
      );
    });

    it('answers 400 VALIDATION_ERROR for an id that is not a UUID', async () => {
      expectError(
        await h.request('GET', '/api/invoices/in_123', { cookie: alice.cookie }),
        'VALIDATION_ERROR',
      );
    });
  });
});
