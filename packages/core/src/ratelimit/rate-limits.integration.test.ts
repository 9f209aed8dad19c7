import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestCore, type TestCore, uniqueEmail } from '../testing/index.ts';
import { postgresCounterStore } from './counter-store.ts';

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

  it('count a hot key of a custom limit a lease at a time, never past its limit', async () => {
    await awayFromTheMinutesEnd();
    const user = await first.core.accounts.createUser({ email: uniqueEmail('limits'), name: 'Hot' });
    const principal = { userId: user.id, accountLimit: 10_000_000 };
    const decisions = await Promise.all(
      Array.from({ length: 2000 }, (_, i) => (i % 2 ? first : second).core.rateLimits.hitRequest(principal)),
    );
    const remaining = decisions.map((decision) => decision.remaining);
    expect(decisions.every((decision) => decision.allowed)).toBe(true);
    // Every request its own unit of the shared count: no two report the same Remaining.
    expect(new Set(remaining).size).toBe(2000);
    const [row] = await first.core.db.execute<{ count: number }>(
      `select count from rate_limit_counters where bucket = ?`,
      [`account:${user.id}`],
    );
    // The shared row holds the 2,000 and at most what each process's last lease left unspent.
    expect(row?.count).toBeGreaterThanOrEqual(2000);
    expect(row?.count).toBeLessThanOrEqual(2000 + 2 * 256);
    expect(10_000_000 - Math.min(...remaining)).toBeLessThanOrEqual(row?.count ?? 0);
  });

  it('sweeps the expired counters once a process has counted', async () => {
    const db = first.core.db;
    await db.execute(
      `insert into rate_limit_counters (bucket, window_start, count, expires_at)
       values ('sweep-expired', 1, 1, now() - interval '1 hour')`,
    );
    const present = async () =>
      (await db.execute(`select 1 from rate_limit_counters where bucket = 'sweep-expired'`)).length === 1;
    vi.useFakeTimers({ toFake: ['setInterval'] });
    const store = postgresCounterStore(db, (error) => {
      throw error;
    });
    try {
      // Counted for no time: expired at once, so the next sweep is due.
      await store.increment('sweep-live', 1, 0);
      vi.advanceTimersByTime(60_000);
      // The sweep's statement, started by the timer, reaches the database.
      for (let i = 0; i < 200 && (await present()); i += 1) await new Promise((r) => setTimeout(r, 10));
      expect(await present()).toBe(false);
    } finally {
      await store.close();
      vi.useRealTimers();
    }
  });
});

/** The counts below are read as one window's: a run that would straddle a minute's end waits for the next. */
async function awayFromTheMinutesEnd() {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < 10_000) await new Promise((resolve) => setTimeout(resolve, left + 100));
}
