import { PLAN_RATE_LIMITS } from '@verdict/contracts';
import { type Clock, PUBLIC_IP_LIMIT } from '@verdict/core';
import { createTestCore, eventually, TEST_PASSWORD, type TestCore, uniqueEmail } from '@verdict/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createKey,
  expectError,
  type Harness,
  type HttpResult,
  registerUser,
  startServer,
} from '../testing/http-harness.ts';

const MINUTE = 60_000;

/** A clock the test moves by hand; starts 15 s into a minute so window edges are known. */
function manualClock() {
  let now = Math.floor(Date.now() / MINUTE) * MINUTE + 15_000;
  const clock: Clock & { advance: (ms: number) => void; windowEnd: () => number } = {
    now: () => now,
    advance: (ms) => {
      now += ms;
    },
    windowEnd: () => (Math.floor(now / MINUTE) + 1) * MINUTE,
  };
  return clock;
}

const limitHeaders = (res: HttpResult) => ({
  limit: res.headers.get('x-ratelimit-limit'),
  remaining: res.headers.get('x-ratelimit-remaining'),
  reset: res.headers.get('x-ratelimit-reset'),
});

describe('rate-limit headers (system clock)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startServer();
  });
  afterAll(async () => {
    await h.close();
  });

  it('sends X-RateLimit-Limit, -Remaining and -Reset (Unix seconds, in the future, within 60 s) on a keyed success', async () => {
    const user = await registerUser(h, { rateLimit: 'plan' });
    const { key } = await createKey(h, user);
    const before = Date.now();
    const res = await h.request('GET', '/v1/me', { key });
    const after = Date.now();
    expect(res.status).toBe(200);
    const headers = limitHeaders(res);
    expect(headers.limit).toBe(String(PLAN_RATE_LIMITS.free));
    // Creating the key with the session counted in the sessions' budget: this is the keys' first request.
    expect(headers.remaining).toBe(String(PLAN_RATE_LIMITS.free - 1));
    expect(headers.reset).toMatch(/^\d+$/);
    const resetMs = Number(headers.reset) * 1000;
    expect(resetMs).toBeGreaterThan(before);
    expect(resetMs).toBeLessThanOrEqual(after + MINUTE);
  });

  it('sends them over tRPC as well', async () => {
    const user = await registerUser(h);
    const { key } = await createKey(h, user, { config: { rateLimit: 7 } });
    const res = await h.request('GET', '/trpc/v1.me', { key });
    expect(res.status).toBe(200);
    expect(limitHeaders(res)).toMatchObject({ limit: '7', remaining: '6' });
  });

  it('sends them on session-authenticated responses (the sessions’ own budget), errors included, and not on unauthenticated ones', async () => {
    const user = await registerUser(h, { rateLimit: 'plan' });
    const sessionLimit = h.core.config.rateLimits.sessionRequestsPerMinute;
    // registerUser's session read was the first request of the sessions' budget.
    const ok = await h.request('GET', '/api/keys', { cookie: user.cookie });
    expect(limitHeaders(ok)).toMatchObject({
      limit: String(sessionLimit),
      remaining: String(sessionLimit - 1),
    });
    const invalid = await h.request('POST', '/api/keys', { cookie: user.cookie, body: { name: '' } });
    expectError(invalid, 'VALIDATION_ERROR');
    expect(limitHeaders(invalid)).toMatchObject({ remaining: String(sessionLimit - 2) });
    const missing = await h.request('GET', '/api/debates/00000000-0000-4000-8000-000000000000', {
      cookie: user.cookie,
    });
    expectError(missing, 'NOT_FOUND');
    expect(limitHeaders(missing)).toMatchObject({ remaining: String(sessionLimit - 3) });
    expect(limitHeaders(await h.request('GET', '/v1/health')).limit).toBeNull();
  });
});

describe('account and key limits (manual clock, database counters)', () => {
  const clock = manualClock();
  let h: Harness;
  beforeAll(async () => {
    h = await startServer({ coreOptions: { clock, counters: 'database' } });
  });
  afterAll(async () => {
    await h.close();
  });

  /** A free account on its plan's limit with `keys` keys, made while the clock is a window behind. */
  async function freeAccountWithKeys(keys: number) {
    clock.advance(-MINUTE);
    const user = await registerUser(h, { rateLimit: 'plan' });
    const created = [];
    for (let i = 0; i < keys; i++) created.push(await createKey(h, user, { name: `key ${i}` }));
    clock.advance(MINUTE);
    return { user, keys: created.map((k) => k.key) };
  }

  it('uses the plan limit: free 10, then pro 120 after a plan change', async () => {
    const { user, keys } = await freeAccountWithKeys(1);
    const free = await h.request('GET', '/v1/me', { key: keys[0] });
    expect(limitHeaders(free)).toEqual({
      limit: String(PLAN_RATE_LIMITS.free),
      remaining: String(PLAN_RATE_LIMITS.free - 1),
      reset: String(clock.windowEnd() / 1000),
    });
    expect(PLAN_RATE_LIMITS.free).toBe(10);
    await h.core.accounts.setPlan(user.session.user.id, 'pro');
    const pro = await h.request('GET', '/v1/me', { key: keys[0] });
    expect(PLAN_RATE_LIMITS.pro).toBe(120);
    expect(limitHeaders(pro)).toMatchObject({ limit: '120', remaining: '118' });
  });

  it("holds the plan's limit per account: five keys share 10 requests a minute", async () => {
    const { keys } = await freeAccountWithKeys(5);
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++)
      statuses.push((await h.request('GET', '/v1/me', { key: keys[i % 5] })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 429, 429]);
    const refused = await h.request('GET', '/v1/me', { key: keys[0] });
    expectError(refused, 'RATE_LIMITED', { extras: ['retryAfter', 'budget', 'limit'] });
    expect(limitHeaders(refused)).toMatchObject({ limit: '10', remaining: '0' });
    // Another account is not affected.
    const other = await freeAccountWithKeys(1);
    expect((await h.request('GET', '/v1/me', { key: other.keys[0] })).status).toBe(200);
  });

  it("gives the account's dashboard sessions a budget apart from its keys': neither spends the other's", async () => {
    const { user, keys } = await freeAccountWithKeys(1);
    const sessionLimit = h.core.config.rateLimits.sessionRequestsPerMinute;
    expect(sessionLimit).toBeGreaterThan(PLAN_RATE_LIMITS.free);
    for (let i = 0; i < 10; i++)
      expect((await h.request('GET', '/v1/me', { key: keys[0] })).status).toBe(200);
    expectError(await h.request('GET', '/v1/me', { key: keys[0] }), 'RATE_LIMITED', {
      extras: ['retryAfter', 'budget', 'limit'],
    });
    // The keys' budget is spent; the console still works, up to the sessions' own limit.
    const statuses: number[] = [];
    for (let i = 0; i < sessionLimit + 1; i++) {
      statuses.push((await h.request('GET', '/api/keys', { cookie: user.cookie })).status);
    }
    expect(statuses.filter((status) => status === 200)).toHaveLength(sessionLimit);
    expect(statuses.at(-1)).toBe(429);
    const refused = await h.request('GET', '/api/keys', { cookie: user.cookie });
    expect(limitHeaders(refused)).toMatchObject({ limit: String(sessionLimit), remaining: '0' });
  });

  it("refuses a key rateLimit above the account's limit with 400 on create and on PATCH, naming the limit", async () => {
    const user = await registerUser(h, { rateLimit: 'plan' });
    const tooHigh = await h.request('POST', '/api/keys', {
      cookie: user.cookie,
      body: { name: 'greedy', config: { rateLimit: 11 } },
    });
    const error = expectError(tooHigh, 'VALIDATION_ERROR');
    expect(error.details).toEqual([expect.objectContaining({ path: 'config.rateLimit', code: 'too_big' })]);
    expect(error.details?.[0]?.message).toContain('10');
    const key = await createKey(h, user, { config: { rateLimit: 10 } });
    const patched = await h.request('PATCH', `/api/keys/${key.id}`, {
      cookie: user.cookie,
      body: { config: { rateLimit: 100_000 } },
    });
    expectError(patched, 'VALIDATION_ERROR');
    const stored = await h.request<{ keys: { id: string; config: { rateLimit: number } }[] }>(
      'GET',
      '/api/keys',
      { cookie: user.cookie },
    );
    expect(stored.json.keys.find((k) => k.id === key.id)?.config.rateLimit).toBe(10);
  });

  it("lets the key's own rateLimit lower the account's limit, and an operator raise the account's", async () => {
    const user = await registerUser(h, { rateLimit: 'plan' });
    await h.core.accounts.setPlan(user.session.user.id, 'pro');
    const low = await createKey(h, user, { config: { rateLimit: 3 } });
    const plain = await createKey(h, user);
    expect(limitHeaders(await h.request('GET', '/v1/me', { key: low.key })).limit).toBe('3');
    expect(limitHeaders(await h.request('GET', '/v1/me', { key: plain.key })).limit).toBe('120');
    await h.core.accounts.setRateLimit(user.session.user.id, 500);
    const high = await createKey(h, user, { config: { rateLimit: 400 } });
    expect(limitHeaders(await h.request('GET', '/v1/me', { key: high.key })).limit).toBe('400');
    // A key cached before the change learns of it from the database's notification (key_principal_changes),
    // which reaches every process, this one too, a moment after the commit.
    await eventually(
      async () => limitHeaders(await h.request('GET', '/v1/me', { key: plain.key })).limit,
      (limit) => limit === '500',
      5000,
    );
  });

  it('holds a key to the lower account limit after a downgrade, whatever the key says', async () => {
    const user = await registerUser(h, { rateLimit: 'plan' });
    await h.core.accounts.setPlan(user.session.user.id, 'pro');
    const key = await createKey(h, user, { config: { rateLimit: 100 } });
    await h.core.accounts.setPlan(user.session.user.id, 'free');
    expect(limitHeaders(await h.request('GET', '/v1/me', { key: key.key })).limit).toBe('10');
  });

  it('applies a PATCHed rateLimit on the next request', async () => {
    const user = await registerUser(h);
    const created = await createKey(h, user, { config: { rateLimit: 10 } });
    expect(limitHeaders(await h.request('GET', '/v1/me', { key: created.key })).limit).toBe('10');
    await h.request('PATCH', `/api/keys/${created.id}`, {
      cookie: user.cookie,
      body: { config: { rateLimit: 2 } },
    });
    expect(limitHeaders(await h.request('GET', '/v1/me', { key: created.key })).limit).toBe('2');
  });

  it('answers the request over the limit with 429 RATE_LIMITED, Retry-After to the window end and Remaining 0', async () => {
    const user = await registerUser(h);
    const { key } = await createKey(h, user, { config: { rateLimit: 3 } });
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await h.request('GET', '/v1/me', { key })).status);
    expect(statuses).toEqual([200, 200, 200]);
    const limited = await h.request('GET', '/v1/me', { key });
    const error = expectError(limited, 'RATE_LIMITED', { extras: ['retryAfter', 'budget', 'limit'] });
    const expectedWait = Math.ceil((clock.windowEnd() - clock.now()) / 1000);
    expect(limited.headers.get('retry-after')).toBe(String(expectedWait));
    expect(error.retryAfter).toBe(expectedWait);
    expect(error).toMatchObject({
      budget: 'requests',
      limit: 3,
      message: `At most 3 requests per minute; retry in ${expectedWait} s`,
    });
    expect(limitHeaders(limited)).toEqual({
      limit: '3',
      remaining: '0',
      reset: String(clock.windowEnd() / 1000),
    });
  });

  it('allows the key again once the clock moves into the next window, without sleeping', async () => {
    const user = await registerUser(h);
    const { key } = await createKey(h, user, { config: { rateLimit: 2 } });
    await h.request('GET', '/v1/me', { key });
    await h.request('GET', '/v1/me', { key });
    expectError(await h.request('GET', '/v1/me', { key }), 'RATE_LIMITED', {
      extras: ['retryAfter', 'budget', 'limit'],
    });
    clock.advance(30_000); // same window still (15 s + 30 s)
    expectError(await h.request('GET', '/v1/me', { key }), 'RATE_LIMITED', {
      extras: ['retryAfter', 'budget', 'limit'],
    });
    clock.advance(MINUTE);
    const again = await h.request('GET', '/v1/me', { key });
    expect(again.status).toBe(200);
    expect(limitHeaders(again)).toMatchObject({ limit: '2', remaining: '1' });
  });

  it('counts one bucket per key across /v1, /api and tRPC, and never runs a refused procedure', async () => {
    const user = await registerUser(h);
    const { key } = await createKey(h, user, { config: { rateLimit: 3 } });
    expect((await h.request('GET', '/v1/me', { key })).status).toBe(200);
    expect((await h.request('GET', '/trpc/v1.me', { key })).status).toBe(200);
    expect((await h.request('POST', '/api/keys', { key, body: { name: 'third' } })).status).toBe(201);
    const refused = await h.request('POST', '/api/keys', { key, body: { name: 'fourth' } });
    expectError(refused, 'RATE_LIMITED', { extras: ['retryAfter', 'budget', 'limit'] });
    const names = (
      await h.request<{ keys: { name: string }[] }>('GET', '/api/keys', { cookie: user.cookie })
    ).json.keys.map((k) => k.name);
    expect(names).toContain('third');
    expect(names).not.toContain('fourth');
  });

  it("keeps a key's own limit to itself: one exhausted key leaves the account's other key untouched", async () => {
    const user = await registerUser(h);
    const a = await createKey(h, user, { config: { rateLimit: 1 } });
    const b = await createKey(h, user, { config: { rateLimit: 1 } });
    expect((await h.request('GET', '/v1/me', { key: a.key })).status).toBe(200);
    expectError(await h.request('GET', '/v1/me', { key: a.key }), 'RATE_LIMITED', {
      extras: ['retryAfter', 'budget', 'limit'],
    });
    expect((await h.request('GET', '/v1/me', { key: b.key })).status).toBe(200);
  });

  it('answers 429 over tRPC with the RATE_LIMITED app code and Retry-After', async () => {
    const user = await registerUser(h);
    const { key } = await createKey(h, user, { config: { rateLimit: 1 } });
    await h.request('GET', '/trpc/v1.me', { key });
    const res = await h.request<{ error: { data: { appCode: string } } }>('GET', '/trpc/v1.me', { key });
    expect(res.status).toBe(429);
    expect(res.json.error.data.appCode).toBe('RATE_LIMITED');
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('sign-ups per client IP', () => {
  const clock = manualClock();
  let h: Harness;
  beforeAll(async () => {
    h = await startServer({ env: { REGISTER_LIMIT_PER_HOUR: '3' }, coreOptions: { clock } });
  });
  afterAll(async () => {
    await h.close();
  });

  const signUp = () =>
    h.request('POST', '/api/auth/register', {
      body: { email: uniqueEmail('ip'), password: TEST_PASSWORD, name: 'Ip' },
    });

  it('allows REGISTER_LIMIT_PER_HOUR sign-ups an hour from one IP, then 429 with Retry-After and headers', async () => {
    const first = await signUp();
    expect(first.status).toBe(201);
    expect(limitHeaders(first)).toMatchObject({ limit: '3', remaining: '2' });
    expect([(await signUp()).status, (await signUp()).status]).toEqual([201, 201]);
    const refused = await signUp();
    const error = expectError(refused, 'RATE_LIMITED', { extras: ['retryAfter', 'budget', 'limit'] });
    expect(error).toMatchObject({ budget: 'signUps', limit: 3 });
    expect(error.message).toMatch(/^At most 3 sign-ups per hour from this address; retry in \d+ s$/);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(error.retryAfter).toBe(Number(refused.headers.get('retry-after')));
    expect(limitHeaders(refused)).toMatchObject({ limit: '3', remaining: '0' });
    // Signing in is not a sign-up: it keeps working from the same address.
    const login = await h.request('POST', '/api/auth/login', {
      body: { email: uniqueEmail('nobody'), password: TEST_PASSWORD },
    });
    expectError(login, 'UNAUTHORIZED');
    clock.advance(2 * 60 * MINUTE);
    expect((await signUp()).status).toBe(201);
  });
});

describe('limits across two API processes on one database', () => {
  /** Sends `count` requests alternating between the servers; returns the statuses in order. */
  async function alternate(servers: Harness[], key: string, count: number) {
    const statuses: number[] = [];
    for (let i = 0; i < count; i++) {
      statuses.push((await servers[i % servers.length]!.request('GET', '/v1/me', { key })).status);
    }
    return statuses;
  }

  describe('with database counters (distributed mode)', () => {
    const clock = manualClock();
    let a: Harness;
    let b: Harness;
    beforeAll(async () => {
      a = await startServer({ coreOptions: { clock, counters: 'database' } });
      b = await startServer({
        env: { DATABASE_SCHEMA: a.schema },
        coreOptions: { clock, counters: 'database' },
      });
    });
    afterAll(async () => {
      await b.close();
      await a.close();
    });

    it('holds the limit across both: with rateLimit 4, exactly 4 of 10 alternating requests succeed', async () => {
      const user = await registerUser(a);
      const { key } = await createKey(b, user, { config: { rateLimit: 4 } });
      const statuses = await alternate([a, b], key, 10);
      expect(statuses).toEqual([200, 200, 200, 200, 429, 429, 429, 429, 429, 429]);
    });

    it('resets for both once the window passes', async () => {
      const user = await registerUser(a);
      const { key } = await createKey(a, user, { config: { rateLimit: 2 } });
      expect(await alternate([a, b], key, 3)).toEqual([200, 200, 429]);
      clock.advance(MINUTE);
      expect(await alternate([b, a], key, 3)).toEqual([200, 200, 429]);
    });

    it('rejects a key revoked through one server on the other within a second', async () => {
      const user = await registerUser(a);
      const created = await createKey(a, user);
      for (let i = 0; i < 3; i++)
        expect((await b.request('GET', '/v1/me', { key: created.key })).status).toBe(200);
      expect((await a.request('DELETE', `/api/keys/${created.id}`, { cookie: user.cookie })).status).toBe(
        204,
      );
      const revokedAt = Date.now();
      let answer = await b.request('GET', '/v1/me', { key: created.key });
      while (answer.status === 200 && Date.now() - revokedAt < 1000) {
        answer = await b.request('GET', '/v1/me', { key: created.key });
      }
      expectError(answer, 'UNAUTHORIZED');
    });
  });

  describe('with memory counters (embedded-mode semantics)', () => {
    const clock = manualClock();
    let a: Harness;
    let b: Harness;
    beforeAll(async () => {
      a = await startServer({ coreOptions: { clock, counters: 'memory' } });
      b = await startServer({
        env: { DATABASE_SCHEMA: a.schema },
        coreOptions: { clock, counters: 'memory' },
      });
    });
    afterAll(async () => {
      await b.close();
      await a.close();
    });

    it('counts per process: with rateLimit 4, each server allows 4, so 8 of 10 alternating requests succeed', async () => {
      const user = await registerUser(a);
      const { key } = await createKey(a, user, { config: { rateLimit: 4 } });
      const statuses = await alternate([a, b], key, 10);
      expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 429, 429]);
    });

    it('resets with the clock as well', async () => {
      const user = await registerUser(a);
      const { key } = await createKey(a, user, { config: { rateLimit: 1 } });
      expect(await alternate([a, a], key, 2)).toEqual([200, 429]);
      clock.advance(MINUTE);
      expect(await alternate([a], key, 1)).toEqual([200]);
    });
  });
});

describe('core.rateLimits.hitPublicIp (sliding window per IP)', () => {
  const cases = ['memory', 'database'] as const;
  describe.each(cases)('with %s counters', (counters) => {
    const clock = manualClock();
    let test: TestCore;
    beforeAll(async () => {
      test = await createTestCore({}, { clock, counters });
    });
    afterAll(async () => {
      await test.cleanup();
    });

    it(`allows ${PUBLIC_IP_LIMIT.limit} requests per 60 s and refuses the next with a Retry-After`, async () => {
      expect(PUBLIC_IP_LIMIT).toEqual({ limit: 30, windowMs: 60_000 });
      const ip = '203.0.113.10';
      for (let i = 1; i <= 30; i++) {
        const decision = await test.core.rateLimits.hitPublicIp(ip);
        expect({ i, allowed: decision.allowed, remaining: decision.remaining }).toEqual({
          i,
          allowed: true,
          remaining: 30 - i,
        });
      }
      const refused = await test.core.rateLimits.hitPublicIp(ip);
      expect(refused).toMatchObject({ allowed: false, limit: 30, remaining: 0 });
      // 31 hits sit in this window; in the next one they still weigh (1 - f) * 31, so one more request fits
      // only once f >= 1 - 29/31 of the next window has passed.
      const waitMs = clock.windowEnd() - clock.now() + (1 - 29 / 31) * 60_000;
      expect(refused.retryAfter).toBe(Math.ceil(waitMs / 1000));
      expect(refused.resetAt).toBe(clock.windowEnd() / 1000);
      // Another address is not affected.
      expect((await test.core.rateLimits.hitPublicIp('203.0.113.11')).allowed).toBe(true);
    });

    it('slides: the previous window still weighs at the start of the next one and fades out', async () => {
      const ip = '198.51.100.20';
      for (let i = 0; i < 30; i++) await test.core.rateLimits.hitPublicIp(ip);
      // Move to the very start of the next window: the previous 30 still count in full.
      clock.advance(clock.windowEnd() - clock.now());
      const atStart = await test.core.rateLimits.hitPublicIp(ip);
      expect(atStart.allowed).toBe(false);
      expect(atStart.retryAfter).toBeGreaterThan(0);
      // Halfway through it, half of the previous window has slid out: 15 + 2 <= 30.
      clock.advance(MINUTE / 2);
      const halfway = await test.core.rateLimits.hitPublicIp(ip);
      expect(halfway.allowed).toBe(true);
      expect(halfway.remaining).toBe(13);
      // Two full windows later nothing is left.
      clock.advance(2 * MINUTE);
      expect(await test.core.rateLimits.hitPublicIp(ip)).toMatchObject({ allowed: true, remaining: 29 });
    });

    it('allows the request a client sends after waiting exactly Retry-After seconds', async () => {
      const ip = '198.51.100.40';
      clock.advance(clock.windowEnd() - clock.now()); // start of a window
      for (let i = 0; i < 31; i++) await test.core.rateLimits.hitPublicIp(ip);
      clock.advance(MINUTE); // start of the next one: the previous 31 weigh in full
      const refused = await test.core.rateLimits.hitPublicIp(ip);
      expect(refused.allowed).toBe(false);
      clock.advance(refused.retryAfter * 1000);
      expect((await test.core.rateLimits.hitPublicIp(ip)).allowed).toBe(true);
    });

    it('does not let a burst at a window edge double the allowance, unlike a fixed window', async () => {
      const ip = '198.51.100.30';
      // 30 requests in the last second of a window, then 30 more just after the edge.
      clock.advance(clock.windowEnd() - clock.now() - 1000);
      for (let i = 0; i < 30; i++) expect((await test.core.rateLimits.hitPublicIp(ip)).allowed).toBe(true);
      clock.advance(2000);
      let allowedAfterEdge = 0;
      for (let i = 0; i < 30; i++)
        if ((await test.core.rateLimits.hitPublicIp(ip)).allowed) allowedAfterEdge++;
      expect(allowedAfterEdge).toBeLessThanOrEqual(1);
    });
  });
});
