import { UNMATCHED_ENDPOINT, Usage } from '@verdict/contracts';
import { eventually } from '@verdict/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createKey,
  expectError,
  type Harness,
  registerUser,
  startServer,
  type TestUser,
} from '../../testing/http-harness.ts';

const MINUTE = 60_000;
const MISSING_DEBATE = '00000000-0000-4000-8000-000000000000';

describe('GET /v1/usage', () => {
  // A clock the tests move: to a fresh rate-limit window, and across a month's end.
  let now = Date.parse('2026-03-10T12:00:30Z');
  let h: Harness;
  let user: TestUser;
  beforeAll(async () => {
    h = await startServer({ coreOptions: { clock: { now: () => now } } });
    user = await registerUser(h);
  });
  afterAll(async () => {
    await h.close();
  });

  const usageOf = async (key: string) => {
    const res = await h.request('GET', '/v1/usage', { key });
    expect(res.status, res.text).toBe(200);
    return { usage: Usage.parse(res.json), headers: res.headers };
  };
  /** The key's usage as core reads it, without counting a request. */
  const storedUsage = (keyId: string) =>
    h.core.usage.ofKey({ keyId, userId: user.session.user.id, accountLimit: 1, config: null });

  it('counts every request of the key by route template, refused ones included, 429s too', async () => {
    const key = await createKey(h, user, { config: { rateLimit: 8 } });
    const as = { key: key.key };
    expect((await h.request('GET', '/v1/me', as)).status).toBe(200);
    expect((await h.request('GET', `/v1/verdicts/${MISSING_DEBATE}`, as)).status).toBe(404);
    expect((await h.request('GET', '/v1/verdicts/not-a-uuid', as)).status).toBe(400);
    expect((await h.request('GET', '/v1/verdicts?limit=0', as)).status).toBe(400);
    expect((await h.request('GET', '/trpc/v1.me', as)).status).toBe(200);
    // Refused before any procedure runs: counted once answered, under the template or the one bucket.
    expect((await h.request('PUT', '/v1/me', as)).status).toBe(405);
    expect((await h.request('POST', '/v1/verdicts', { ...as, rawBody: '{"question":' })).status).toBe(400);
    expect((await h.request('GET', '/v1/no/such/route/1', as)).status).toBe(404);
    expect((await h.request('GET', '/v1/no/such/route/2', as)).status).toBe(404);
    // Five counted by the limiter so far; three more fit in the key's 8 per minute, then 429.
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await h.request('GET', '/v1/me', as)).status);
    expect(statuses).toEqual([200, 200, 200, 429, 429]);

    await eventually(
      () => storedUsage(key.id),
      (u) => u.totalRequests === 14,
    );
    now += MINUTE; // a fresh window, or /v1/usage itself would be refused
    const { usage, headers } = await usageOf(key.key);
    expect(usage).toEqual({
      keyId: key.id,
      period: '2026-03-01',
      totalRequests: 15,
      byEndpoint: {
        '/v1/me': 7,
        '/v1/verdicts/:id': 2,
        '/v1/verdicts': 2,
        '/trpc/v1.me': 1,
        [UNMATCHED_ENDPOINT]: 2,
        '/v1/usage': 1,
      },
      rateLimit: 8,
    });
    expect(headers.get('x-ratelimit-limit')).toBe('8');
  });

  it("reports the account's limit for a key without one of its own, and the lower of the two otherwise", async () => {
    const planUser = await registerUser(h, { rateLimit: 'plan' });
    const plain = await createKey(h, planUser);
    const { usage, headers } = await usageOf(plain.key);
    expect(usage.rateLimit).toBe(10); // the free plan's per-minute limit
    expect(headers.get('x-ratelimit-limit')).toBe('10');
    const lower = await createKey(h, planUser, { config: { rateLimit: 4 } });
    expect((await usageOf(lower.key)).usage.rateLimit).toBe(4);
    // A plan change can leave a key's own limit above its account's: the account's holds.
    const roomy = await createKey(h, user, { config: { rateLimit: 50 } });
    await h.core.accounts.setRateLimit(user.session.user.id, 20);
    try {
      expect((await usageOf(roomy.key)).usage.rateLimit).toBe(20);
    } finally {
      await h.core.accounts.setRateLimit(user.session.user.id, 100_000);
    }
  });

  it("shows only the calling key's requests: not another key's of the same account, nor sessions'", async () => {
    const mine = await createKey(h, user);
    const other = await createKey(h, user);
    for (let i = 0; i < 3; i++) await h.request('GET', '/v1/me', { key: other.key });
    await h.request('GET', '/api/keys', { cookie: user.cookie });
    await h.request('GET', '/api/keys', { key: mine.key });
    const { usage } = await usageOf(mine.key);
    expect(usage.keyId).toBe(mine.id);
    expect(usage.byEndpoint).toEqual({ '/api/keys': 1, '/v1/usage': 1 });
    expect(usage.totalRequests).toBe(2);
    expect((await usageOf(other.key)).usage.byEndpoint).toEqual({ '/v1/me': 3, '/v1/usage': 1 });
  });

  it('does not count requests with an invalid or revoked key', async () => {
    const key = await createKey(h, user);
    await h.request('GET', '/v1/me', { key: key.key });
    const revoked = await h.request('DELETE', `/api/keys/${key.id}`, { cookie: user.cookie });
    expect(revoked.status).toBe(204);
    expectError(await h.request('GET', '/v1/me', { key: key.key }), 'UNAUTHORIZED');
    expectError(await h.request('GET', '/v1/usage', { key: key.key }), 'UNAUTHORIZED');
    await h.request('GET', '/v1/no/such/route', { key: key.key });
    await h.core.usage.flush();
    expect((await storedUsage(key.id)).byEndpoint).toEqual({ '/v1/me': 1 });
  });

  it('answers a dashboard session without a key with 401 API_KEY_REQUIRED', async () => {
    const res = await h.request('GET', '/v1/usage', { cookie: user.cookie });
    expectError(res, 'API_KEY_REQUIRED');
    expect(res.headers.get('x-ratelimit-limit')).not.toBeNull();
  });

  it.each([
    ['no credentials', {}],
    ['an unknown session cookie', { cookie: 'not-a-session' }],
    ['an unknown key', { key: `vrd_${'x'.repeat(32)}` }],
  ])('answers %s with 401 UNAUTHORIZED', async (_label, options) => {
    expectError(await h.request('GET', '/v1/usage', options), 'UNAUTHORIZED');
  });

  it('starts each UTC month from zero and keeps the months apart', async () => {
    const key = await createKey(h, user);
    now = Date.parse('2026-03-31T23:59:58Z');
    for (let i = 0; i < 3; i++) await h.request('GET', '/v1/me', { key: key.key });
    now = Date.parse('2026-04-01T00:00:01Z');
    for (let i = 0; i < 2; i++) await h.request('GET', '/v1/me', { key: key.key });
    const april = (await usageOf(key.key)).usage;
    expect(april).toMatchObject({ period: '2026-04-01', totalRequests: 3 });
    expect(april.byEndpoint).toEqual({ '/v1/me': 2, '/v1/usage': 1 });
    await h.core.usage.flush();
    now = Date.parse('2026-03-31T23:59:59Z');
    const march = await storedUsage(key.id);
    expect(march).toMatchObject({ period: '2026-03-01', totalRequests: 3, byEndpoint: { '/v1/me': 3 } });
    now = Date.parse('2026-04-02T00:00:00Z');
  });
});

describe('usage counts when an API process stops', () => {
  it('writes what it counted on close, including requests counted after their answer', async () => {
    const first = await startServer();
    try {
      const user = await registerUser(first);
      const key = await createKey(first, user);
      const second = await startServer({ env: { DATABASE_SCHEMA: first.schema } });
      for (let i = 0; i < 25; i++) await second.request('GET', '/v1/me', { key: key.key });
      await second.request('GET', '/v1/unknown', { key: key.key });
      await second.close();
      const res = await first.request('GET', '/v1/usage', { key: key.key });
      expect(Usage.parse(res.json).byEndpoint).toEqual({
        '/v1/me': 25,
        [UNMATCHED_ENDPOINT]: 1,
        '/v1/usage': 1,
      });
    } finally {
      await first.close();
    }
  });
});
