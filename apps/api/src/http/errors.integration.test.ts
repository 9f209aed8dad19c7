import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createKey,
  expectError,
  type Harness,
  registerUser,
  startServer,
  type TestUser,
} from '../testing/http-harness.ts';

const BODY_LIMIT = 2048;

describe('error envelope', () => {
  let h: Harness;
  let user: TestUser;
  let key: string;
  beforeAll(async () => {
    h = await startServer({ env: { BODY_LIMIT_BYTES: String(BODY_LIMIT) } });
    user = await registerUser(h);
    key = (await createKey(h, user, { config: { rateLimit: 1000 } })).key;
  });
  afterAll(async () => {
    await h.close();
  });

  describe('request bodies', () => {
    it.each([
      ['an unfinished object', '{"name":'],
      ['a trailing comma', '{"name":"x",}'],
      ['single quotes', "{'name':'x'}"],
    ])('answers malformed JSON (%s) with 400 VALIDATION_ERROR and details', async (_label, rawBody) => {
      const res = await h.request('POST', '/api/keys', { cookie: user.cookie, rawBody });
      const error = expectError(res, 'VALIDATION_ERROR');
      expect(error.details?.length).toBeGreaterThan(0);
      expect(error.details?.[0]?.path).toBe('');
    });

    it('answers malformed JSON on a public route (register) the same way', async () => {
      const res = await h.request('POST', '/api/auth/register', { rawBody: '{"email":"a@b.c", password}' });
      expect(expectError(res, 'VALIDATION_ERROR').details?.length).toBeGreaterThan(0);
    });

    it.each([
      ['text/plain', 'name=x'],
      ['application/xml', '<key><name>x</name></key>'],
      ['application/x-www-form-urlencoded', 'name=x'],
    ])('answers a %s body with 415 UNSUPPORTED_MEDIA_TYPE', async (contentType, rawBody) => {
      const res = await h.request('POST', '/api/keys', { key, rawBody, contentType });
      expectError(res, 'UNSUPPORTED_MEDIA_TYPE');
    });

    it(`answers a body over BODY_LIMIT_BYTES (${BODY_LIMIT}) with 413 PAYLOAD_TOO_LARGE and creates nothing`, async () => {
      const before = (await h.request<{ keys: unknown[] }>('GET', '/api/keys', { key })).json.keys.length;
      const res = await h.request('POST', '/api/keys', {
        key,
        body: { name: 'big', config: { description: 'x'.repeat(BODY_LIMIT) } },
      });
      expectError(res, 'PAYLOAD_TOO_LARGE');
      const after = (await h.request<{ keys: unknown[] }>('GET', '/api/keys', { key })).json.keys.length;
      expect(after).toBe(before);
    });

    it('accepts a body just under the limit', async () => {
      const res = await h.request('POST', '/api/keys', {
        key,
        body: { name: 'fits', config: { description: 'x'.repeat(400) } },
      });
      expect(res.status).toBe(201);
    });

    it.each([
      ['a number for a string', { email: 42, password: 'long enough', name: 'N' }, ['email']],
      ['a missing field', { email: 'a@example.com', password: 'long enough' }, ['name']],
      ['null for a string', { email: 'a@example.com', password: null, name: 'N' }, ['password']],
      ['an empty object', {}, ['email', 'password', 'name']],
    ])(
      'answers %s with 400 VALIDATION_ERROR whose details name every offending field',
      async (_l, body, paths) => {
        const res = await h.request('POST', '/api/auth/register', { body });
        const error = expectError(res, 'VALIDATION_ERROR');
        expect(error.details?.map((d) => d.path).sort()).toEqual([...paths].sort());
      },
    );

    it('answers an array body with 400 VALIDATION_ERROR saying the body must be a JSON object', async () => {
      const res = await h.request('POST', '/api/auth/register', { body: ['a@example.com'] });
      expect(expectError(res, 'VALIDATION_ERROR').details).toEqual([
        { path: '', message: 'Expected a JSON object', code: 'invalid_type' },
      ]);
    });

    it('answers a POST with an empty JSON body like a body without fields: 400 VALIDATION_ERROR', async () => {
      const res = await h.request('POST', '/api/keys', { key, rawBody: '' });
      const error = expectError(res, 'VALIDATION_ERROR');
      expect(error.details?.map((d) => d.path)).toContain('name');
    });
  });

  describe('unknown routes', () => {
    it.each([
      ['GET', '/api/nope'],
      ['GET', '/v1/nope'],
      ['GET', '/nope'],
      ['POST', '/v1/nope'],
      ['GET', '/api/keys/extra/segment'],
      ['OPTIONS', '/nope'],
    ])('answers %s %s with 404 NOT_FOUND in the envelope', async (method, path) => {
      const res = await h.request(method, path, { key });
      expectError(res, 'NOT_FOUND');
    });

    it.each([
      ['OPTIONS', '/v1/me', 'GET'],
      ['DELETE', '/v1/me', 'GET'],
      ['GET', '/api/auth/login', 'POST'],
      ['PUT', '/api/keys/00000000-0000-4000-8000-000000000000', 'DELETE, PATCH'],
      ['POST', '/health', 'GET, HEAD'],
      ['PATCH', '/v1/verdicts/00000000-0000-4000-8000-000000000000/stream', 'GET'],
      ['HEAD', '/openapi.json', 'GET'],
    ])(
      'answers %s %s (a known path) with 405 METHOD_NOT_ALLOWED and Allow: %s',
      async (method, path, allow) => {
        const res = await h.request(method, path, { key });
        if (method !== 'HEAD') expectError(res, 'METHOD_NOT_ALLOWED');
        expect(res.status).toBe(405);
        expect(res.headers.get('allow')).toBe(allow);
      },
    );

    it('keeps the message of a 404 short whatever the length of the path', async () => {
      const res = await h.request('GET', `/api/${'x'.repeat(5000)}`, { key });
      const error = expectError(res, 'NOT_FOUND');
      expect(error.message.length).toBeLessThan(300);
      expect(error.message).toMatch(/^No route for GET \/api\/x+…$/);
    });

    it('answers HEAD of an unknown path with 404', async () => {
      const res = await h.request('HEAD', '/nope');
      expect(res.status).toBe(404);
    });

    it('answers an unknown route the same with and without credentials', async () => {
      const anonymous = await h.request('GET', '/v1/nope');
      expectError(anonymous, 'NOT_FOUND');
    });
  });
});

describe('unexpected failures', () => {
  let h: Harness;
  let user: TestUser;
  beforeAll(async () => {
    h = await startServer();
    user = await registerUser(h);
    // Sessions live in their own table, so authentication still works once api_keys is gone.
    await h.core.db.execute('drop table api_keys cascade');
  });
  afterAll(async () => {
    await h.close();
  });

  const LEAKS = [/api_keys/i, /select/i, /relation/i, /does not exist/i, /stack/i, /at \w+ \(/, /\.ts:\d+/];

  it('answers a database failure with 500 INTERNAL_ERROR whose message says nothing about the cause', async () => {
    const res = await h.request('GET', '/api/keys', { cookie: user.cookie });
    const error = expectError(res, 'INTERNAL_ERROR');
    expect(error.message).toBe('Internal server error');
    expect(error.details).toBeUndefined();
    for (const leak of LEAKS) expect(res.text).not.toMatch(leak);
  });

  it('answers a failing mutation the same way', async () => {
    const res = await h.request('POST', '/api/keys', { cookie: user.cookie, body: { name: 'doomed' } });
    expect(expectError(res, 'INTERNAL_ERROR').message).toBe('Internal server error');
    for (const leak of LEAKS) expect(res.text).not.toMatch(leak);
  });

  it('leaks nothing over tRPC either', async () => {
    const res = await h.request<{ error: { message: string; data: { appCode: string } } }>(
      'GET',
      '/trpc/keys.list',
      { cookie: user.cookie },
    );
    expect(res.status).toBe(500);
    expect(res.json.error.message).toBe('Internal server error');
    expect(res.json.error.data.appCode).toBe('INTERNAL_ERROR');
    for (const leak of LEAKS) expect(res.text).not.toMatch(leak);
  });

  it('keeps serving after the failure', async () => {
    expect((await h.request('GET', '/health')).status).toBe(200);
    expect((await h.request('GET', '/api/auth/session', { cookie: user.cookie })).status).toBe(200);
  });
});
