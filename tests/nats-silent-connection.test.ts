import { randomUUID } from 'node:crypto';
import type { NatsBus } from '@verdict/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { busOnPrivateNats, type PrivateNatsServer } from './support/nats-server.ts';

const PING_MS = 500;

/**
 * A connection whose server went silent (frozen here; a vanished host or a partition does the same) is dropped
 * after three unanswered pings, and the bus is back, pulling jobs, once the server answers again. nats.js's
 * own pings (every 2 min, two missed) left such a connection unnoticed for minutes.
 */
describe('a NATS connection gone silent', () => {
  let nats: PrivateNatsServer;
  let bus: NatsBus;
  let close: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    ({ nats, bus, close } = await busOnPrivateNats('silent', { pingIntervalMs: PING_MS }));
  });
  afterAll(() => close?.());

  it('is dropped after three unanswered pings, and the bus pulls jobs again once the server answers', async () => {
    const received: string[] = [];
    const consumer = bus.jobs.consume(1, async (job) => {
      received.push(job.job.debateId);
      await job.ack();
    });
    const statuses: string[] = [];
    void (async () => {
      for await (const status of bus.connection.status()) statuses.push(status.type);
    })();
    try {
      const before = randomUUID();
      await bus.jobs.enqueue({ debateId: before, attempt: 1 });
      await expect.poll(() => received, { timeout: 10_000 }).toContain(before);

      nats.pause();
      const frozenAt = Date.now();
      await expect.poll(() => statuses, { timeout: PING_MS * 10, interval: 50 }).toContain('staleConnection');
      // Three pings out, then the next interval notices: well within ten.
      expect(Date.now() - frozenAt).toBeLessThan(PING_MS * 10);
      nats.resume();

      await expect.poll(() => statuses, { timeout: 30_000 }).toContain('reconnect');
      const after = randomUUID();
      await bus.jobs.enqueue({ debateId: after, attempt: 1 });
      await expect.poll(() => received, { timeout: 10_000 }).toContain(after);
    } finally {
      nats.resume();
      await consumer.stop();
    }
  }, 60_000);
});
