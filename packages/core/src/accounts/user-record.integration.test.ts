import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestCore, type TestCore } from '../testing/index.ts';
import { addToCreditBalance, insertUser, setUserPlan, setUserRateLimit } from './user-record.ts';

describe("a user's record", () => {
  let test: TestCore;

  beforeAll(async () => {
    test = await createTestCore();
  }, 60_000);
  afterAll(async () => {
    await test?.cleanup();
  });

  const newUser = async () => {
    const id = randomUUID();
    await test.core.db.em().transactional((em) =>
      insertUser(em, {
        id,
        email: `${id}@example.com`,
        name: 'T',
        passwordHash: null,
        plan: 'pro',
        at: new Date(),
      }),
    );
    return id;
  };

  it('moves the balance and answers null for no such account, never below zero', async () => {
    const id = await newUser();
    expect(await addToCreditBalance(test.core.db.em(), id, 5)).toBe(5);
    expect(await addToCreditBalance(test.core.db.em(), id, -2)).toBe(3);
    expect(await addToCreditBalance(test.core.db.em(), randomUUID(), 5)).toBeNull();
    await expect(addToCreditBalance(test.core.db.em(), id, -4)).rejects.toThrow();
    expect(await addToCreditBalance(test.core.db.em(), id, 0)).toBe(3);
  });

  it('sets the plan and the rate limit of an account, and says when there is none', async () => {
    const id = await newUser();
    expect(await setUserPlan(test.core.db.em(), id, 'enterprise')).toBe(true);
    expect(await setUserRateLimit(test.core.db.em(), id, 42)).toBe(true);
    const [row] = await test.core.db.execute<{ plan: string; rate_limit_per_minute: number | null }>(
      'select plan, rate_limit_per_minute from users where id = ?',
      [id],
    );
    expect(row).toEqual({ plan: 'enterprise', rate_limit_per_minute: 42 });
    expect(await setUserPlan(test.core.db.em(), randomUUID(), 'enterprise')).toBe(false);
    expect(await setUserRateLimit(test.core.db.em(), randomUUID(), null)).toBe(false);
  });
});
