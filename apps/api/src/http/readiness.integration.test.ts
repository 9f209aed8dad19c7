import { Readiness, type ReadinessChecks } from '@verdict/contracts';
import { startTcpProxy, type TcpProxy, testNatsUrl, uniqueSchema } from '@verdict/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, type Harness, startServer } from '../testing/http-harness.ts';
import { createLifecycle, type Lifecycle } from './lifecycle.ts';

const ALL_OK: ReadinessChecks = { database: 'ok', bus: 'ok', migrations: 'ok', draining: false };

/** The checks a 503 from /ready carries next to its code and message. */
const checksOf = (json: unknown) => (json as { error: { checks: ReadinessChecks } }).error.checks;

describe('GET /ready', () => {
  let harness: Harness;
  let lifecycle: Lifecycle;
  /** In front of NATS: cutting it is a bus outage to this server alone. */
  let natsProxy: TcpProxy;

  beforeAll(async () => {
    const nats = new URL(testNatsUrl());
    natsProxy = await startTcpProxy({ host: nats.hostname, port: Number(nats.port || 4222) });
    lifecycle = createLifecycle();
    harness = await startServer({
      env: { NATS_URL: `nats://127.0.0.1:${natsProxy.port}`, NATS_PREFIX: `${uniqueSchema('ready')}.` },
      lifecycle,
    });
  });
  afterAll(async () => {
    await natsProxy?.restore().catch(() => {});
    await harness?.close();
    await natsProxy?.close();
  });

  it('answers 200 with every check when the database, the bus and the schema are fine', async () => {
    const res = await harness.request('GET', '/ready');
    expect(res.status).toBe(200);
    expect(Readiness.parse(res.json)).toEqual({ status: 'ready', checks: ALL_OK });
  });

  it('answers 503 naming the migration when the database lacks one of this version', async () => {
    const [last] = await harness.core.db.execute<{ id: number; name: string; executed_at: Date }>(
      'select id, name, executed_at from mikro_orm_migrations order by id desc limit 1',
    );
    if (!last) throw new Error('no migration recorded');
    await harness.core.db.execute('delete from mikro_orm_migrations where id = ?', [last.id]);
    try {
      const res = await harness.request('GET', '/ready');
      const error = expectError(res, 'SERVICE_UNAVAILABLE', { extras: ['checks'] });
      expect(error.message).toContain(`migrations not applied: ${last.name}`);
      expect(checksOf(res.json)).toEqual({ ...ALL_OK, migrations: 'pending' });
    } finally {
      await harness.core.db.execute(
        'insert into mikro_orm_migrations (id, name, executed_at) values (?, ?, ?)',
        [last.id, last.name, last.executed_at],
      );
    }
    expect((await harness.request('GET', '/ready')).status).toBe(200);
  });

  it('answers 503 within the check timeout while NATS is unreachable, /health still 200, then 200 again', async () => {
    await natsProxy.cut();
    const started = Date.now();
    const res = await harness.request('GET', '/ready');
    expect(Date.now() - started).toBeLessThan(4000);
    const error = expectError(res, 'SERVICE_UNAVAILABLE', { extras: ['checks'] });
    expect(error.message).toBe('Not ready: the bus does not answer');
    expect(checksOf(res.json)).toEqual({ ...ALL_OK, bus: 'unavailable' });
    // Liveness is the database's only: a bus outage must not get the process restarted.
    expect((await harness.request('GET', '/health')).status).toBe(200);

    await natsProxy.restore();
    const deadline = Date.now() + 15_000;
    let status = 0;
    while (Date.now() < deadline && status !== 200) {
      status = (await harness.request('GET', '/ready')).status;
      if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(status).toBe(200);
  });

  it('answers 503 "shutting down" once the process drains, while /health and the API still answer', async () => {
    lifecycle.drain();
    const res = await harness.request('GET', '/ready');
    const error = expectError(res, 'SERVICE_UNAVAILABLE', { extras: ['checks'] });
    expect(error.message).toBe('Not ready: the process is shutting down');
    expect(checksOf(res.json)).toEqual({ ...ALL_OK, draining: true });
    expect((await harness.request('GET', '/health')).status).toBe(200);
    expect((await harness.request('GET', '/v1/health')).status).toBe(200);
  });
});
