import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditTrailOf, createTestCore, type TestCore, uniqueEmail } from '../../testing/index.ts';
import { creditOnce } from '../ledger.ts';
import { recordSubscriptionInvoice } from './payment-records.ts';
import type { Stripe } from './stripe-client.ts';

/** The fields of a processor invoice that billing reads. */
const invoice = (id: string, status: 'paid' | 'open') =>
  ({
    id,
    status,
    amount_paid: status === 'paid' ? 2900 : 0,
    amount_due: 2900,
    currency: 'USD',
    created: 1_780_000_000,
    description: null,
    hosted_invoice_url: `https://invoice.stripe.test/${id}`,
  }) as unknown as Stripe.Invoice;

describe('payment records', () => {
  let test: TestCore;
  const newUser = async () =>
    (await test.core.accounts.createUser({ email: uniqueEmail('billing'), name: 'Payer' })).id;
  const balanceOf = async (userId: string) => (await test.core.invoices.balance(userId)).balance;
  /** The credit grants the account's audit trail shows: balance before and after, and why. */
  const grantsOf = async (userId: string) =>
    (await auditTrailOf(test.core.db, { accountId: userId }))
      .filter((entry) => entry.action === 'account.credit_grant')
      .map((entry) => entry.changes);

  beforeAll(async () => {
    test = await createTestCore();
  });
  afterAll(async () => {
    await test.cleanup();
  });

  it('adds purchased credits once per reference, with one ledger row', async () => {
    const userId = await newUser();
    const credit = (reference: string) =>
      test.core.db.em().transactional((em) =>
        creditOnce(em, {
          userId,
          credits: 100,
          reason: 'purchase',
          reference,
          note: 'pack',
          at: new Date(),
        }),
      );
    expect(await credit('checkout:cs_1')).toBe(true);
    expect(await credit('checkout:cs_1')).toBe(false);
    expect(await Promise.all([credit('checkout:cs_2'), credit('checkout:cs_2')])).toEqual(
      expect.arrayContaining([true, false]),
    );
    expect(await balanceOf(userId)).toBe(210);
    const rows = await test.core.db.execute<{ reason: string }>(
      "select reason from credit_ledger where user_id = ? and reason = 'purchase'",
      [userId],
    );
    expect(rows).toHaveLength(2);
    expect(await grantsOf(userId)).toEqual([
      {
        creditBalance: { before: 10, after: 110 },
        amount: { before: null, after: 100 },
        reason: { before: null, after: 'purchase' },
      },
      {
        creditBalance: { before: 110, after: 210 },
        amount: { before: null, after: 100 },
        reason: { before: null, after: 'purchase' },
      },
    ]);
  });

  it("grants a plan's monthly credits once per paid invoice, and none for an unpaid one", async () => {
    const userId = await newUser();
    const record = (id: string, paid: boolean) =>
      test.core.db.em().transactional((em) =>
        recordSubscriptionInvoice(em, invoice(id, paid ? 'paid' : 'open'), {
          userId,
          plan: 'pro',
          workspaceId: null,
          paid,
          now: new Date(),
        }),
      );
    await record('in_may', false);
    expect(await balanceOf(userId)).toBe(10);
    await record('in_may', true);
    await record('in_may', true);
    expect(await balanceOf(userId)).toBe(510);
    await record('in_june', true);
    expect(await balanceOf(userId)).toBe(1010);
    const invoices = await test.core.invoices.list(userId, { page: 1, limit: 20 });
    expect(invoices.invoices.map((row) => [row.status, row.currency, row.amountCents])).toEqual([
      ['paid', 'usd', 2900],
      ['paid', 'usd', 2900],
    ]);
    expect((await grantsOf(userId)).map((changes) => changes.creditBalance)).toEqual([
      { before: 10, after: 510 },
      { before: 510, after: 1010 },
    ]);
  });
});
