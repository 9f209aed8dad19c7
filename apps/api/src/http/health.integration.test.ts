import { Health } from '@verdict/contracts';
import { proxyTestDatabase, type TcpProxy } from '@verdict/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, type Harness, startServer } from '../testing/http-harness.ts';

describe('GET /health', () => {
  let direct: Harness;
  let proxied: Harness;
  /** In front of PostgreSQL: cutting it is a database outage to the proxied server. */
  let proxy: TcpProxy;

  beforeAll(async () => {
    direct = await startServer();
    const viaProxy = await proxyTestDatabase();
    proxy = viaProxy.proxy;
    proxied = await startServer({ env: { DATABASE_URL: viaProxy.url, DATABASE_SCHEMA: direct.schema } });
  });
  afterAll(async () => {
    await proxy?.restore().catch(() => {}); // make sure the proxied pool can close cleanly
    await proxied?.close();
    await proxy?.close();
    await direct?.close();
  });

  it('answers 200 {status:"ok"} with the database check when the database answers', async () => {
    const res = await direct.request('GET', '/health');
    expect(res.status).toBe(200);
    expect(Health.parse(res.json)).toEqual({ status: 'ok', checks: { database: 'ok' } });
  });

  it('answers 503 SERVICE_UNAVAILABLE within a few seconds when the database is unreachable, then 200 once it is back', async () => {
    expect((await proxied.request('GET', '/health')).status).toBe(200);

    await proxy.cut();
    const started = Date.now();
    const down = await proxied.request('GET', '/health');
    expect(Date.now() - started).toBeLessThan(5000);
    const error = expectError(down, 'SERVICE_UNAVAILABLE');
    expect(error.message).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|postgres/i);

    // The process itself is alive: the liveness route does not touch the database.
    expect((await proxied.request('GET', '/v1/health')).status).toBe(200);

    await proxy.restore();
    const up = await proxied.request('GET', '/health');
    expect(up.status).toBe(200);
    expect(Health.parse(up.json).status).toBe('ok');
  });

  it('answers 503 again on a second outage (the pool recovers each time)', async () => {
    await proxy.cut();
    expectError(await proxied.request('GET', '/health'), 'SERVICE_UNAVAILABLE');
    await proxy.restore();
    expect((await proxied.request('GET', '/health')).status).toBe(200);
  });
});
