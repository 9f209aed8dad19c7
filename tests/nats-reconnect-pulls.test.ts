import { randomUUID } from 'node:crypto';
import type { NatsBus } from '@verdict/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { busOnPrivateNats, type PrivateNatsServer } from './support/nats-server.ts';

const SLOTS = 6;
const RESTARTS = 3;
/**
 * Well under nats.js's own pause after a failed check on reconnecting (15–45 s), and under the 5 s a slot's
 * look-up of its consumer waited when made while the connection was down.
 */
const RESUMED_WITHIN_MS = 3500;

/**
 * Every job slot pulls again soon after NATS comes back from a crash. nats.js's consume() checks its consumer
 * on reconnecting and, when the check fails (JetStream still recovering its store), waits 15–45 s before
 * pulling again: found by the chaos runs, where a fault shortly after a NATS restart took 10–14 s to recover
 * because most engine slots were still waiting. The server first comes back without JetStream, so the check
 * fails every time rather than only when the store recovers slowly. A slot whose look-up of its consumer was
 * sent while the connection was down waited 5 s for an answer that never came: that is bounded too.
 */
describe('job slots after a NATS restart', () => {
  let nats: PrivateNatsServer;
  let bus: NatsBus;
  let close: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    ({ nats, bus, close } = await busOnPrivateNats('pulls', { jobAckWaitMs: 30_000 }));
  });
  afterAll(() => close?.());

  it(`all ${SLOTS} slots take a job within ${RESUMED_WITHIN_MS} ms of the server being back`, async () => {
    // Each slot holds its job until the round's jobs are all taken: a round completes only when every slot pulls.
    // A job of an earlier round may come again (its ack died with the server: delivery is at least once); it is
    // acknowledged at once and does not count towards this round.
    let roundIds = new Set<string>();
    let round = new Set<string>();
    let release = () => {};
    let held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const consumer = bus.jobs.consume(SLOTS, async (job) => {
      if (!roundIds.has(job.job.debateId)) return job.ack();
      round.add(job.job.debateId);
      if (round.size === SLOTS) release();
      await held;
      await job.ack();
    });
    const aRound = async () => {
      round = new Set();
      held = new Promise<void>((resolve) => {
        release = resolve;
      });
      const ids = Array.from({ length: SLOTS }, () => randomUUID());
      roundIds = new Set(ids);
      await Promise.all(ids.map((debateId) => bus.jobs.enqueue({ debateId, attempt: 1 })));
      const started = Date.now();
      await expect.poll(() => round.size, { timeout: RESUMED_WITHIN_MS, interval: 50 }).toBe(SLOTS);
      return Date.now() - started;
    };
    /** Until `ask` succeeds: the client is connected, or JetStream answers. */
    const answering = (ask: () => Promise<unknown>) =>
      expect
        .poll(
          () =>
            ask().then(
              () => true,
              () => false,
            ),
          { timeout: 10_000 },
        )
        .toBe(true);
    try {
      await aRound();
      for (let restart = 0; restart < RESTARTS; restart++) {
        await nats.stop('SIGKILL');
        // Back, but its JetStream not yet (as while a big store recovers): the clients reconnect, and the
        // slots' check of their consumer fails.
        await nats.start({ jetstream: false });
        await answering(() => bus.ping(500));
        await new Promise((resolve) => setTimeout(resolve, 1000));
        await nats.stop('SIGKILL');
        await nats.start();
        // The client is back and JetStream answers: from here on, every slot must pull soon.
        await answering(() => bus.ping(500));
        await answering(() => bus.jobs.waiting());
        expect(await aRound()).toBeLessThan(RESUMED_WITHIN_MS);
      }
    } finally {
      release();
      await consumer.stop();
    }
  }, 120_000);
});
