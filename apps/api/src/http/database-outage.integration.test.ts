import { proxyTestDatabase, type TcpProxy } from '@verdict/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey, type Harness, registerUser, startServer } from '../testing/http-harness.ts';

/**
 * While the database cannot be reached (its connections cut by a proxy, as a restart or a partition cuts
 * them), requests that need it answer 503 SERVICE_UNAVAILABLE with Retry-After — on REST and on /trpc — not
 * 500, and the service answers again once it is back.
 */
describe('requests while the database is out of reach', () => {
  let h: Harness;
  let proxy: TcpProxy;
  let key: string;

  beforeAll(async () => {
    const database = await proxyTestDatabase();
    proxy = database.proxy;
    h = await startServer({ env: { DATABASE_URL: database.url } });
    const user = await registerUser(h);
    key = (await createKey(h, user)).key;
  });
  afterAll(async () => {
    await proxy?.restore();
    await h?.close();
    await proxy?.close();
  });

  it('answers 503 with Retry-After on REST and tRPC, then 200 once it is back', async () => {
    expect((await h.request('GET', '/api/debates', { key })).status).toBe(200);
    await proxy.cut();
    try {
      const rest = await h.request<{ error: { code: string; message: string } }>('GET', '/api/debates', {
        key,
      });
      expect(rest.status).toBe(503);
      expect(rest.json.error.code).toBe('SERVICE_UNAVAILABLE');
      expect(rest.headers.get('retry-after')).toBe('2');
      expect(rest.text).not.toMatch(/ECONN|5432|postgres/i);
      const trpc = await fetch(`${h.baseUrl}/trpc/debates.list?input=${encodeURIComponent('{}')}`, {
        headers: { authorization: `Bearer ${key}` },
      });
      expect(trpc.status).toBe(503);
    } finally {
      await proxy.restore();
    }
    await expect
      .poll(async () => (await h.request('GET', '/api/debates', { key })).status, { timeout: 15_000 })
      .toBe(200);
  });
});
