import { randomUUID } from 'node:crypto';
import type { NatsBus } from '@verdict/core';
import { createTestCore, type TestCore, uniqueSchema } from '@verdict/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { busOnPrivateNats, type PrivateNatsServer, startNatsServer } from './support/nats-server.ts';

/**
 * A job queued while the bus's connection is down (NATS killed and started again, the client reconnecting)
 * is queued once the connection is back, and the publish says so: it neither fails nor waits out nats.js's
 * whole timeout for an acknowledgement that never comes (the publish of a buffered message). Found by the
 * chaos runs: a create made during a NATS restart answered after 5 s and its job was lost.
 */
describe('a job queued while NATS restarts', () => {
  let nats: PrivateNatsServer;
  let bus: NatsBus;
  let close: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    ({ nats, bus, close } = await busOnPrivateNats('reconnect', { jobAckWaitMs: 2000 }));
  });
  afterAll(() => close?.());

  it('is queued once when the connection is back, and its publish resolves', async () => {
    const received: string[] = [];
    const consumer = bus.jobs.consume(1, async (job) => {
      received.push(job.job.debateId);
      await job.ack();
    });
    try {
      // A job through first: the consumer is pulling before NATS goes away.
      const before = randomUUID();
      await bus.jobs.enqueue({ debateId: before, attempt: 1 });
      await expect.poll(() => received, { timeout: 10_000 }).toContain(before);
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

/**
 * A create made while NATS is down answers without waiting out the publish of its job, and the publish goes
 * on after the answer: once NATS is back within the publish's time, the job is queued (no reconciler here).
 */
describe('a debate created while NATS is down', () => {
  let nats: PrivateNatsServer;
  let test: TestCore;

  beforeAll(async () => {
    nats = await startNatsServer();
    test = await createTestCore({ NATS_URL: nats.url, NATS_PREFIX: `${uniqueSchema('down')}.` });
  });
  afterAll(async () => {
    await (test?.core.bus as { deleteStreams?: () => Promise<void> } | undefined)?.deleteStreams?.();
    await test?.cleanup();
    await nats?.close();
  });

  it('is answered, and its job queued once NATS is back', async () => {
    const owner = await test.core.accounts.createUser({ email: 'down@example.com', name: 'Down' });
    await test.core.accounts.setPlan(owner.id, 'pro');
    await test.core.billing.grantCredits(owner.id, 10);
    const received: string[] = [];
    const consumer = test.core.bus.jobs.consume(1, async (job) => {
      received.push(job.job.debateId);
      await job.ack();
    });
    try {
      await nats.stop('SIGKILL');
      const question = 'Should the debate made while NATS was down go ahead?';
      const { debateId } = await test.core.debates.create({
        ownerId: owner.id,
        route: 'api',
        question,
        context: null,
        mode: 'fast',
        agents: 2,
        rounds: 2,
        preset: null,
        routing: null,
        compare: false,
        skipCache: true,
        providerKeys: null,
        idempotencyKey: null,
        fingerprint: question,
      });
      // Answered while NATS is still down: the publish is still trying.
      await nats.start();
      await expect.poll(() => received, { timeout: 15_000 }).toContain(debateId);
    } finally {
      await consumer.stop();
    }
  }, 40_000);
});
