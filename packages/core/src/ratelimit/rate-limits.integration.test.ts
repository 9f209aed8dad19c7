import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestCore, type TestCore, uniqueEmail } from '../testing/index.ts';

describe('request limits shared by two processes on PostgreSQL', () => {
  let first: TestCore;
  let second: TestCore;
  beforeAll(async () => {
    first = await createTestCore({}, { counters: 'database' });
    second = await createTestCore({ DATABASE_SCHEMA: first.schema }, { counters: 'database' });
  });
  afterAll(async () => {
    await second?.core.close();
    await first?.cleanup();
  });

  it('serve exactly the limit of 1,000 requests arriving at once on both, each with its own Remaining', async () => {
    const user = await first.core.accounts.createUser({ email: uniqueEmail('limits'), name: 'Limits' });
    const principal = { userId: user.id, accountLimit: 300 };
    const decisions = await Promise.all(
      Array.from({ length: 1000 }, (_, i) => (i % 2 ? first : second).core.rateLimits.hitRequest(principal)),
    );
    const allowed = decisions.filter((decision) => decision.allowed);
    expect(allowed).toHaveLength(300);
    // Each allowed request made its own count: Remaining 299 down to 0, once each.
    expect(allowed.map((decision) => decision.remaining).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 300 }, (_, i) => i),
    );
    expect(decisions.filter((decision) => !decision.allowed).every((d) => d.retryAfter > 0)).toBe(true);
  });

  it("count a key's own lower limit beside its account's, in the same statements", async () => {
    const user = await first.core.accounts.createUser({ email: uniqueEmail('limits'), name: 'Key' });
    const principal = { userId: user.id, accountLimit: 300, keyId: 'k1', keyLimit: 40 };
    const decisions = await Promise.all(
      Array.from({ length: 200 }, (_, i) => (i % 2 ? first : second).core.rateLimits.hitRequest(principal)),
    );
    expect(decisions.filter((decision) => decision.allowed)).toHaveLength(40);
    const others = { userId: user.id, accountLimit: 300 };
    // Every request counted against the account too: 200 of its 300 are spent.
    expect((await first.core.rateLimits.hitRequest(others)).remaining).toBe(99);
  });
});
