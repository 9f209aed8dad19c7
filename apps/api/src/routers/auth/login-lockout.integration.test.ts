import { LOGIN_FAILURE_LIMITS } from '@verdict/core';
import { uniqueEmail } from '@verdict/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, type Harness, registerUser, startServer } from '../../testing/http-harness.ts';

/** How many answers had each status. */
function tally(statuses: number[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const s of statuses) counts[s] = (counts[s] ?? 0) + 1;
  return counts;
}

/** A client address of its own per test (the servers trust the loopback proxy), so the tests share no IP budget. */
let lastOctet = 0;
const freshIp = () => `198.51.100.${++lastOctet}`;

// Two API processes on one schema, as in production: the counters are shared through PostgreSQL.
describe('sign-in failures are counted before the password is checked, across API processes', () => {
  let a: Harness;
  let b: Harness;
  beforeAll(async () => {
    // A frozen clock: the 15-minute window cannot roll over in the middle of a burst.
    const frozen = Date.now();
    const clock = { now: () => frozen };
    const env = { TRUST_PROXY: '127.0.0.1' };
    a = await startServer({ env, coreOptions: { clock } });
    b = await startServer({ env: { ...env, DATABASE_SCHEMA: a.schema }, coreOptions: { clock } });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  const login = (server: Harness, ip: string, email: string, password: string) =>
    server.request('POST', '/api/auth/login', {
      body: { email, password },
      headers: { 'x-forwarded-for': ip },
    });

  it(`checks at most ${LOGIN_FAILURE_LIMITS.perEmail} of 40 wrong passwords sent at once, and refuses the right one once they are spent`, async () => {
    const user = await registerUser(a);
    const ip = freshIp();
    const burst = await Promise.all([
      ...Array.from({ length: 40 }, (_, i) => login(i % 2 ? a : b, ip, user.email, `wrong guess ${i}`)),
      login(a, ip, user.email, user.password),
    ]);
    const statuses = burst.map((res) => res.status);
    const counts = tally(statuses);
    expect(
      Object.keys(counts).every((s) => ['200', '401', '429'].includes(s)),
      JSON.stringify(counts),
    ).toBe(true);
    // Each 401 is a password that was checked and wrong: never more than the budget.
    expect(counts[401] ?? 0, JSON.stringify(counts)).toBeLessThanOrEqual(LOGIN_FAILURE_LIMITS.perEmail);
    expect(counts[429] ?? 0, JSON.stringify(counts)).toBeGreaterThanOrEqual(
      40 - LOGIN_FAILURE_LIMITS.perEmail,
    );

    // The budget is spent: the right password is refused, on either process.
    for (const server of [a, b]) {
      const res = await login(server, ip, user.email, user.password);
      expectError(res, 'RATE_LIMITED', { extras: ['retryAfter', 'budget', 'limit'] });
    }
  });

  it(`checks at most ${LOGIN_FAILURE_LIMITS.perIp} of 60 wrong sign-ins for different emails sent at once from one address`, async () => {
    const ip = freshIp();
    const burst = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        login(i % 2 ? a : b, ip, uniqueEmail(`ip-burst-${i}`), 'not anyone’s password'),
      ),
    );
    const counts = tally(burst.map((res) => res.status));
    expect(
      Object.keys(counts).every((s) => ['401', '429'].includes(s)),
      JSON.stringify(counts),
    ).toBe(true);
    expect(counts[401] ?? 0, JSON.stringify(counts)).toBeLessThanOrEqual(LOGIN_FAILURE_LIMITS.perIp);
    expect(counts[429] ?? 0, JSON.stringify(counts)).toBeGreaterThanOrEqual(60 - LOGIN_FAILURE_LIMITS.perIp);
  }, 90_000);

  it('does not count a successful sign-in as a failure: the budget stays the failures', async () => {
    const user = await registerUser(a);
    const ip = freshIp();
    for (let i = 0; i < LOGIN_FAILURE_LIMITS.perEmail - 1; i++) {
      expect((await login(i % 2 ? a : b, ip, user.email, `wrong ${i}`)).status).toBe(401);
    }
    expect((await login(a, ip, user.email, user.password)).status).toBe(200);
    expect((await login(b, ip, user.email, user.password)).status).toBe(200);
    // The last failure the budget allows, then the refusal.
    expect((await login(b, ip, user.email, 'wrong at last')).status).toBe(401);
    expectError(await login(a, ip, user.email, user.password), 'RATE_LIMITED', {
      extras: ['retryAfter', 'budget', 'limit'],
    });
  });
});
