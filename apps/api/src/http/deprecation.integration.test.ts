import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createKey, expectError, type Harness, registerUser, startServer } from '../testing/http-harness.ts';
import { keyProcedure, publicProcedure, router } from '../trpc/init.ts';

const SUNSET = new Date('2027-06-01T00:00:00Z');
const MIGRATION_GUIDE = 'https://example.com/migrate';
const deprecation = { sunset: SUNSET, link: MIGRATION_GUIDE };
const Ok = z.object({ ok: z.boolean() });

/** A router of its own, built with the production procedure builders, to exercise the shared mechanism. */
const testRouter = router({
  legacyKeyed: keyProcedure
    .meta({ deprecation, openapi: { method: 'GET', path: '/v1/legacy', protect: true } })
    .input(z.void())
    .output(Ok)
    .query(() => ({ ok: true })),
  legacyPublic: publicProcedure
    .meta({ deprecation, openapi: { method: 'GET', path: '/v1/legacy-public' } })
    .input(z.void())
    .output(Ok)
    .query(() => ({ ok: true })),
  current: publicProcedure
    .meta({ openapi: { method: 'GET', path: '/v1/current' } })
    .input(z.void())
    .output(Ok)
    .query(() => ({ ok: true })),
});

describe('deprecated routes', () => {
  let h: Harness;
  let key: string;
  beforeAll(async () => {
    h = await startServer({ router: testRouter });
    // The test router has no auth or key routes; create the user and key through the core.
    const user = await h.core.accounts.createUser({ email: 'deprecation@example.com', name: 'Dep' });
    await h.core.accounts.setRateLimit(user.id, 100);
    key = (await h.core.apiKeys.create(user.id, 'deprecation test')).key;
  });
  afterAll(async () => {
    await h.close();
  });

  const expectDeprecationHeaders = (headers: Headers) => {
    expect(headers.get('deprecation')).toBe('true');
    expect(headers.get('sunset')).toBe('Tue, 01 Jun 2027 00:00:00 GMT');
    expect(new Date(headers.get('sunset')!).getTime()).toBe(SUNSET.getTime());
    expect(headers.get('link')).toBe(`<${MIGRATION_GUIDE}>; rel="deprecation"`);
  };

  it('answers a deprecated keyed route with Deprecation: true, Sunset as an HTTP date and a rel="deprecation" Link', async () => {
    const res = await h.request('GET', '/v1/legacy', { key });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ ok: true });
    expectDeprecationHeaders(res.headers);
    expect(res.headers.get('x-ratelimit-limit')).toBe('100');
  });

  it('sends the deprecation headers on a deprecated public route too', async () => {
    const res = await h.request('GET', '/v1/legacy-public');
    expect(res.status).toBe(200);
    expectDeprecationHeaders(res.headers);
  });

  it('sends the deprecation headers on the error responses of a deprecated route', async () => {
    const res = await h.request('GET', '/v1/legacy');
    expectError(res, 'UNAUTHORIZED');
    expectDeprecationHeaders(res.headers);
  });

  it('sends them over tRPC as well', async () => {
    const res = await h.request('GET', '/trpc/legacyPublic');
    expect(res.status).toBe(200);
    expectDeprecationHeaders(res.headers);
  });

  it('sends no deprecation headers on a route that is not deprecated', async () => {
    const res = await h.request('GET', '/v1/current');
    expect(res.status).toBe(200);
    expect(res.headers.get('deprecation')).toBeNull();
    expect(res.headers.get('sunset')).toBeNull();
    expect(res.headers.get('link')).toBeNull();
  });

  it('marks exactly the deprecated operations deprecated: true in OpenAPI and documents their headers', async () => {
    type Op = { deprecated?: boolean; responses: Record<string, { headers?: Record<string, unknown> }> };
    const doc = (await h.request<{ paths: Record<string, { get?: Op }> }>('GET', '/openapi.json')).json;
    expect(doc.paths['/v1/legacy']?.get?.deprecated).toBe(true);
    expect(doc.paths['/v1/legacy-public']?.get?.deprecated).toBe(true);
    expect(doc.paths['/v1/current']?.get?.deprecated).toBeUndefined();
    expect(Object.keys(doc.paths['/v1/legacy']?.get?.responses['200']?.headers ?? {})).toEqual(
      expect.arrayContaining(['Deprecation', 'Sunset', 'Link']),
    );
  });
});

describe('a server with the default router', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startServer();
  });
  afterAll(async () => {
    await h.close();
  });

  it('sends no deprecation headers on any current route', async () => {
    const user = await registerUser(h);
    const { key } = await createKey(h, user);
    for (const res of [
      await h.request('GET', '/v1/me', { key }),
      await h.request('GET', '/v1/health'),
      await h.request('GET', '/api/keys', { cookie: user.cookie }),
    ]) {
      expect(res.status).toBe(200);
      expect(res.headers.get('deprecation')).toBeNull();
      expect(res.headers.get('sunset')).toBeNull();
    }
  });
});
