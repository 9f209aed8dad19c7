import { Health, Profile } from '@verdict/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createKey,
  expectError,
  type Harness,
  registerUser,
  startServer,
  type TestUser,
} from '../../testing/http-harness.ts';

describe('/v1 public API', () => {
  let h: Harness;
  let user: TestUser;
  let key: string;
  beforeAll(async () => {
    h = await startServer();
    user = await registerUser(h, { name: 'Vera Public' });
    key = (await createKey(h, user, { config: { rateLimit: 1000 } })).key;
  });
  afterAll(async () => {
    await h.close();
  });

  it('answers GET /v1/me with the profile of the key owner: exactly id, name, email, plan, createdAt', async () => {
    const res = await h.request('GET', '/v1/me', { key });
    expect(res.status).toBe(200);
    expect(Object.keys(res.json as object).sort()).toEqual(['createdAt', 'email', 'id', 'name', 'plan']);
    expect(Profile.parse(res.json)).toEqual({
      id: user.session.user.id,
      name: 'Vera Public',
      email: user.email,
      plan: 'free',
      createdAt: user.session.user.createdAt,
    });
  });

  it('accepts the key in X-Api-Key as well', async () => {
    const res = await h.request('GET', '/v1/me', { key, keyHeader: 'x-api-key' });
    expect(Profile.parse(res.json).id).toBe(user.session.user.id);
  });

  it('reflects a plan change on the next request', async () => {
    const other = await registerUser(h);
    const otherKey = (await createKey(h, other)).key;
    await h.core.accounts.setPlan(other.session.user.id, 'byok_pro');
    expect(Profile.parse((await h.request('GET', '/v1/me', { key: otherKey })).json).plan).toBe('byok_pro');
  });

  it('answers GET /v1/me without a key with 401 UNAUTHORIZED', async () => {
    expectError(await h.request('GET', '/v1/me'), 'UNAUTHORIZED');
  });

  it('answers GET /v1/me with only a session cookie with 401 UNAUTHORIZED: /v1 needs a key', async () => {
    const res = await h.request('GET', '/v1/me', { cookie: user.cookie });
    expectError(res, 'UNAUTHORIZED');
    expect(res.text).not.toContain(user.email);
  });

  it.each([
    ['a non-vrd bearer token', { authorization: 'Bearer sk-not-ours' }],
    ['a truncated vrd key', { authorization: 'Bearer vrd_short' }],
    ['a well-formed but unknown vrd key', { authorization: `Bearer vrd_${'x'.repeat(32)}` }],
    ['a Basic authorization header', { authorization: 'Basic dXNlcjpwYXNz' }],
    ['an empty X-Api-Key', { 'x-api-key': '' }],
    ['a key with a trailing character', { 'x-api-key': 'PLACEHOLDER!' }],
  ])('answers GET /v1/me with %s with 401 UNAUTHORIZED', async (_label, headers) => {
    const withKey = Object.fromEntries(
      Object.entries(headers).map(([name, value]) => [name, value.replace('PLACEHOLDER', key)]),
    );
    const res = await h.request('GET', '/v1/me', { headers: withKey });
    expectError(res, 'UNAUTHORIZED');
    expect(res.headers.get('x-ratelimit-limit')).toBeNull();
  });

  it('answers GET /v1/health with 200 {status:"ok"} without any credentials', async () => {
    const res = await h.request('GET', '/v1/health');
    expect(res.status).toBe(200);
    expect(Health.parse(res.json)).toEqual({ status: 'ok' });
  });

  it('answers GET /v1/health even with an invalid key: health takes no auth', async () => {
    const res = await h.request('GET', '/v1/health', { key: 'vrd_bogus' });
    expect(res.status).toBe(200);
  });
});
