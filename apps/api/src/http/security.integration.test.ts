import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, type Harness, registerUser, startServer } from '../testing/http-harness.ts';

const APP = 'https://app.example.test';
const EVIL = 'https://evil.example.test';

describe('security headers, CORS and CSRF', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startServer({ env: { APP_URL: APP } });
  });
  afterAll(async () => {
    await h.close();
  });

  const keysOf = async (cookie: string) =>
    (await h.request<{ keys: { name: string }[] }>('GET', '/api/keys', { cookie })).json.keys.map(
      (k) => k.name,
    );

  it.each([
    ['a success', 'GET', '/v1/health'],
    ['an error', 'GET', '/api/nope'],
    ['the document', 'GET', '/openapi.json'],
  ])('sends the security headers on %s', async (_label, method, path) => {
    const res = await h.request(method, path);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toBe(
      "default-src 'none';frame-ancestors 'none';base-uri 'none';form-action 'none'",
    );
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.get('x-frame-options')).toBe('SAMEORIGIN');
  });

  it('keeps the headers that only documents need to pages: the docs have them, API answers do not', async () => {
    const documentOnly = [
      'cross-origin-opener-policy',
      'origin-agent-cluster',
      'x-dns-prefetch-control',
      'x-download-options',
      'x-permitted-cross-domain-policies',
      'x-xss-protection',
    ];
    const present = (res: { headers: Headers }) => documentOnly.filter((name) => res.headers.has(name));
    expect(present(await h.request('GET', '/v1/health'))).toEqual([]);
    expect(present(await h.request('GET', '/api/nope'))).toEqual([]);
    const docs = await h.request('GET', '/docs');
    expect(present(docs)).toEqual(documentOnly);
    expect(docs.headers.get('cross-origin-opener-policy')).toBe('same-origin');
    expect(docs.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it("gives /docs a policy Redoc runs under: its own script, inline styles, a blob worker, nothing else's", async () => {
    const page = await h.request('GET', '/docs');
    expect(page.status).toBe(200);
    const csp = Object.fromEntries(
      (page.headers.get('content-security-policy') ?? '').split(';').map((d) => {
        const [name, ...values] = d.trim().split(' ');
        return [name, values];
      }),
    );
    expect(csp).toMatchObject({
      'default-src': ["'none'"],
      'script-src': ["'self'"],
      'style-src': ["'self'", "'unsafe-inline'"],
      'connect-src': ["'self'"],
      'worker-src': ["'self'", 'blob:'],
      'frame-ancestors': ["'none'"],
    });
    expect(page.text).toContain('<script src="/docs/redoc.standalone.js">');
    expect((await h.request('GET', '/docs/redoc.standalone.js')).status).toBe(200);
  });

  it('answers a CORS preflight from the web app with credentials on /api, without them on /v1', async () => {
    const preflight = (path: string, origin: string) =>
      h.request('OPTIONS', path, {
        headers: {
          origin,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type',
        },
      });
    const api = await preflight('/api/keys', APP);
    expect(api.status).toBe(204);
    expect(api.headers.get('access-control-allow-origin')).toBe(APP);
    expect(api.headers.get('access-control-allow-credentials')).toBe('true');
    expect(api.headers.get('access-control-allow-headers')).toContain('Idempotency-Key');
    const v1 = await preflight('/v1/verdicts', APP);
    expect(v1.headers.get('access-control-allow-origin')).toBe(APP);
    expect(v1.headers.get('access-control-allow-credentials')).toBeNull();
    const foreign = await preflight('/api/keys', EVIL);
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('exposes the rate-limit headers to the web app, and lets any page read the health checks', async () => {
    const user = await registerUser(h);
    const res = await h.request('GET', '/api/keys', { cookie: user.cookie, headers: { origin: APP } });
    expect(res.headers.get('access-control-allow-origin')).toBe(APP);
    expect(res.headers.get('access-control-expose-headers')).toContain('X-RateLimit-Remaining');
    const health = await h.request('GET', '/health', { headers: { origin: EVIL } });
    expect(health.headers.get('access-control-allow-origin')).toBe('*');
    expect(health.headers.get('access-control-allow-credentials')).toBeNull();
  });

  it("refuses a cookie-authenticated write from another site's page with 403, and writes nothing", async () => {
    const user = await registerUser(h);
    const byOrigin = await h.request('POST', '/api/keys', {
      cookie: user.cookie,
      body: { name: 'forged' },
      headers: { origin: EVIL },
    });
    expectError(byOrigin, 'FORBIDDEN');
    const byFetchSite = await h.request('POST', '/api/keys', {
      cookie: user.cookie,
      body: { name: 'forged too' },
      headers: { 'sec-fetch-site': 'cross-site' },
    });
    expectError(byFetchSite, 'FORBIDDEN');
    const nullOrigin = await h.request('DELETE', '/api/debates/00000000-0000-4000-8000-000000000000', {
      cookie: user.cookie,
      headers: { origin: 'null' },
    });
    expectError(nullOrigin, 'FORBIDDEN');
    expect(await keysOf(user.cookie)).toEqual([]);
  });

  it("lets the web app's origin, a same-origin page and clients without browser headers write", async () => {
    const user = await registerUser(h);
    const cases: Record<string, string>[] = [
      { origin: APP },
      { origin: 'http://127.0.0.1:1', 'sec-fetch-site': 'same-origin' },
      {},
    ];
    for (const [i, headers] of cases.entries()) {
      const res = await h.request('POST', '/api/keys', {
        cookie: user.cookie,
        body: { name: `ok ${i}` },
        headers,
      });
      expect(res.status).toBe(201);
    }
    expect((await keysOf(user.cookie)).sort()).toEqual(['ok 0', 'ok 1', 'ok 2']);
  });

  it('does not apply to API keys (a browser never sends one by itself), and guards sign-in too', async () => {
    const user = await registerUser(h);
    const created = await h.request<{ key: string }>('POST', '/api/keys', {
      cookie: user.cookie,
      body: { name: 'server' },
    });
    const withKey = await h.request('POST', '/api/keys', {
      key: created.json.key,
      body: { name: 'from a script' },
      headers: { origin: EVIL },
    });
    expect(withKey.status).toBe(201);
    const login = await h.request('POST', '/api/auth/login', {
      body: { email: user.email, password: user.password },
      headers: { origin: EVIL },
    });
    expectError(login, 'FORBIDDEN');
    expect(login.headers.getSetCookie()).toEqual([]);
  });
});

describe('CORS_ORIGINS', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startServer({ env: { CORS_ORIGINS: 'https://one.example.test, https://two.example.test' } });
  });
  afterAll(async () => {
    await h.close();
  });

  it('trusts each listed origin for CORS and cookie writes, and no other', async () => {
    const user = await registerUser(h);
    for (const origin of ['https://one.example.test', 'https://two.example.test']) {
      const res = await h.request('POST', '/api/keys', {
        cookie: user.cookie,
        body: { name: origin },
        headers: { origin },
      });
      expect(res.status).toBe(201);
      expect(res.headers.get('access-control-allow-origin')).toBe(origin);
    }
    const other = await h.request('POST', '/api/keys', {
      cookie: user.cookie,
      body: { name: 'three' },
      headers: { origin: 'https://three.example.test' },
    });
    expectError(other, 'FORBIDDEN');
  });
});
