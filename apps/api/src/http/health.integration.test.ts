import { connect, createServer, type Server, type Socket } from 'node:net';
import { Health } from '@verdict/contracts';
import { testDatabaseUrl } from '@verdict/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, type Harness, startServer } from '../testing/http-harness.ts';

/**
 * A TCP proxy in front of PostgreSQL that the test can cut: stopping it refuses new connections and
 * destroys the open ones, which is what a database outage looks like to the API process.
 */
function databaseProxy(target: { host: string; port: number }) {
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let port = 0;

  const pipe = (client: Socket) => {
    const upstream = connect(target.port, target.host);
    sockets.add(client).add(upstream);
    const destroyBoth = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', destroyBoth).on('close', destroyBoth);
    upstream.on('error', destroyBoth).on('close', destroyBoth);
    client.pipe(upstream).pipe(client);
  };

  return {
    /** Listens on a random port the first time, then on the same port again. */
    start: () =>
      new Promise<number>((resolve, reject) => {
        const s = createServer(pipe);
        s.once('error', reject);
        s.listen(port, '127.0.0.1', () => {
          server = s;
          port = (s.address() as { port: number }).port;
          resolve(port);
        });
      }),
    stop: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        sockets.clear();
        const s = server;
        server = undefined;
        if (s) s.close(() => resolve());
        else resolve();
      }),
  };
}

describe('GET /health', () => {
  let direct: Harness;
  let proxied: Harness;
  const database = new URL(testDatabaseUrl());
  const proxy = databaseProxy({ host: database.hostname, port: Number(database.port || 5432) });

  beforeAll(async () => {
    direct = await startServer();
    const port = await proxy.start();
    const viaProxy = new URL(testDatabaseUrl());
    viaProxy.port = String(port);
    proxied = await startServer({
      env: { DATABASE_URL: viaProxy.toString(), DATABASE_SCHEMA: direct.schema },
    });
  });
  afterAll(async () => {
    await proxy.start().catch(() => {}); // make sure the proxied pool can close cleanly
    await proxied?.close();
    await proxy.stop();
    await direct?.close();
  });

  it('answers 200 {status:"ok"} with the database check when the database answers', async () => {
    const res = await direct.request('GET', '/health');
    expect(res.status).toBe(200);
    expect(Health.parse(res.json)).toEqual({ status: 'ok', checks: { database: 'ok' } });
  });

  it('answers 503 SERVICE_UNAVAILABLE within a few seconds when the database is unreachable, then 200 once it is back', async () => {
    expect((await proxied.request('GET', '/health')).status).toBe(200);

    await proxy.stop();
    const started = Date.now();
    const down = await proxied.request('GET', '/health');
    expect(Date.now() - started).toBeLessThan(5000);
    const error = expectError(down, 'SERVICE_UNAVAILABLE');
    expect(error.message).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|postgres/i);

    // The process itself is alive: the liveness route does not touch the database.
    expect((await proxied.request('GET', '/v1/health')).status).toBe(200);

    await proxy.start();
    const up = await proxied.request('GET', '/health');
    expect(up.status).toBe(200);
    expect(Health.parse(up.json).status).toBe('ok');
  });

  it('answers 503 again on a second outage (the pool recovers each time)', async () => {
    await proxy.stop();
    expectError(await proxied.request('GET', '/health'), 'SERVICE_UNAVAILABLE');
    await proxy.start();
    expect((await proxied.request('GET', '/health')).status).toBe(200);
  });
});
