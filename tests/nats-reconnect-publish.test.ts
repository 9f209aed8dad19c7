import { randomUUID } from 'node:crypto';
import { type Bus, natsBus } from '@verdict/core';
import { uniqueSchema } from '@verdict/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PrivateNatsServer, startNatsServer } from './support/nats-server.ts';

/**
 * A job queued while the bus's connection is down (NATS killed and started again, the client reconnecting)
 * is queued once the connection is back, and the publish says so: it neither fails nor waits out nats.js's
 * whole timeout for an acknowledgement that never comes (the publish of a buffered message). Found by the
 * chaos runs: a create made during a NATS restart answered after 5 s and its job was lost.
 */
describe('a job queued while NATS restarts', () => {
  let nats: PrivateNatsServer;
  let bus: Bus & { deleteStreams: () => Promise<void> };

  beforeAll(async () => {
    nats = await startNatsServer();
    bus = await natsBus({ servers: [nats.url], prefix: `${uniqueSchema('reconnect')}.`, jobAckWaitMs: 2000 });
  });
  afterAll(async () => {
    await bus?.deleteStreams().catch(() => {});
    await bus?.close().catch(() => {});
    await nats?.close();
  });

  it('is queued once when the connection is back, and its publish resolves', async () => {
    const received: string[] = [];
    const consumer = bus.jobs.consume(1, async (job) => {
      received.push(job.job.debateId);
      await job.ack();
    });
    try {
      await nats.stop('SIGKILL');
      await nats.start();
      // The client has not noticed yet, or is between tries: the publish is buffered.
      const debateId = randomUUID();
      await expect(bus.jobs.enqueue({ debateId, attempt: 1 })).resolves.toBeUndefined();
      await expect.poll(() => received, { timeout: 10_000 }).toContain(debateId);
      // A second enqueue of the same attempt is the stream's duplicate: the retries added no copy either.
      await bus.jobs.enqueue({ debateId, attempt: 1 });
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(received.filter((id) => id === debateId)).toHaveLength(1);
    } finally {
      await consumer.stop();
    }
  }, 30_000);
});
