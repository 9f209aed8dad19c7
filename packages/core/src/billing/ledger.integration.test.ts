import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestCore, insertStoredDebate, type TestCore } from '../testing/index.ts';
import { chargedFor, debitDebate, refundDebate } from './ledger.ts';

describe('the credit ledger', () => {
  let test: TestCore;
  const balanceOf = async (userId: string) =>
    (
      await test.core.db.execute<{ credit_balance: number }>(
        'select credit_balance from users where id = ?',
        [userId],
      )
    )[0]?.credit_balance;
  const newUser = async (credits: number) => {
    const id = randomUUID();
    await test.core.db.execute(`insert into users (id, email, name, credit_balance) values (?, ?, 'T', ?)`, [
      id,
      `${id}@example.com`,
      credits,
    ]);
    return id;
  };

  beforeAll(async () => {
    test = await createTestCore();
  }, 60_000);
  afterAll(async () => {
    await test?.cleanup();
  });

  it('refunds each account its own net charge for a debate two accounts paid, once', async () => {
    // A personal debate (its creator paid, was refunded, paid again on a retry) then moved into a
    // workspace and retried there (the workspace owner paid): two payers of one debate.
    const creator = await newUser(10);
    const owner = await newUser(10);
    const debateId = await insertStoredDebate({ db: test.core.db }, { ownerId: creator, question: 'Q?' });
    const at = new Date();
    await test.core.db.em().transactional(async (em) => {
      await debitDebate(em, { ownerId: creator, credits: 3, debateId, note: 'first', at });
      await refundDebate(em, debateId, at);
      await debitDebate(em, { ownerId: creator, credits: 3, debateId, note: 'retry', at });
      await debitDebate(em, { ownerId: owner, credits: 8, debateId, note: 'retry in workspace', at });
    });
    expect([await balanceOf(creator), await balanceOf(owner)]).toEqual([7, 2]);
    await test.core.db.em().transactional((em) => refundDebate(em, debateId, at));
    expect([await balanceOf(creator), await balanceOf(owner)]).toEqual([10, 10]);
    await test.core.db.em().transactional((em) => refundDebate(em, debateId, at));
    expect([await balanceOf(creator), await balanceOf(owner)]).toEqual([10, 10]);
    expect(await test.core.db.em().transactional((em) => chargedFor(em, debateId))).toBe(0);
  });
});
