import {
  createTestCore,
  newUserCredentials,
  RECEIVER_HOST,
  receiverPolicy,
  startWebhookReceiver,
  type TestCore,
  type WebhookReceiver,
} from '@verdict/core/testing';
import { Effect, Metric } from 'effect';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngineNode, type EngineNode } from '../node/engine-node.ts';
import { workerMetrics } from './background-worker.ts';

/** The scout's period: a minute, so that anything delivered within seconds was woken by something else. */
const SCOUT_MS = 60_000;
const FAN_OUT_MS = 50;

// The webhook senders of one engine node, idle between events: they sleep, and the fan-out wakes them when
// it queues deliveries, not the scout (whose period here is far longer than the test).
describe('the webhook senders of an engine node', () => {
  let t: TestCore;
  let receiver: WebhookReceiver;
  let node: EngineNode;
  let userId: string;
  let webhookId: string;
  let seq = 0;

  beforeAll(async () => {
    t = await createTestCore({ WEBHOOK_ALLOW_HTTP: 'true' });
    receiver = await startWebhookReceiver();
    userId = (await t.core.accounts.createUser(newUserCredentials('lanes'))).id;
    ({ id: webhookId } = await t.core.webhooks.create(userId, {
      url: `http://${RECEIVER_HOST}:${receiver.port}/hook`,
      events: ['chain.created'],
      active: true,
    }));
    node = createEngineNode({
      db: t.core.db,
      bus: t.core.bus,
      clock: t.core.clock,
      slots: 1,
      providerKeys: {},
      webhooks: {
        policy: receiverPolicy,
        intervalMs: FAN_OUT_MS,
        scoutMs: SCOUT_MS,
        senders: 3,
        retentionIntervalMs: 100,
      },
    });
    node.start();
  });
  afterAll(async () => {
    await node?.stop();
    await receiver?.close();
    await t?.cleanup();
  });

  // An event as core's outbox writer queues it (outbox/webhook-outbox.ts): one row, committed.
  const emit = (event: 'chain.created' | 'chain.updated') =>
    t.core.db.execute(
      `insert into webhook_outbox (user_id, event, dedupe_key, payload) values (?, ?, ?, '{}'::jsonb)`,
      [userId, event, `lanes:${seq++}`],
    );
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  /** Passes the sender lanes have made so far (the process's worker metrics; this file has one node). */
  const lanePasses = () =>
    Effect.runPromise(
      Metric.value(Metric.withAttributes(workerMetrics.passes, { worker: 'webhook-delivery' })).pipe(
        Effect.map((state) => Number(state.count)),
      ),
    );
  const undispatched = async () =>
    (
      await t.core.db.execute<{ n: number }>(
        'select count(*)::int as n from webhook_outbox where dispatched_at is null',
      )
    )[0]!.n;

  it('sends a delivery fanned out while every sender sleeps at once, without waiting for the scout', async () => {
    for (let round = 1; round <= 5; round++) {
      // Idle long enough for every lane to have found nothing and gone to sleep.
      await sleep(300);
      const queuedAt = Date.now();
      await emit('chain.created');
      const deadline = queuedAt + 5_000;
      while (receiver.received.length < round && Date.now() < deadline) await sleep(10);
      expect(receiver.received, `round ${round}`).toHaveLength(round);
      // The fan-out's period (50 ms, jittered) and one send, far below the scout's minute.
      expect(Date.now() - queuedAt).toBeLessThan(5_000);
    }
  });

  it('leaves the senders asleep when the fan-out took only events no webhook wants', async () => {
    await sleep(300);
    const before = await lanePasses();
    for (let i = 0; i < 20; i++) await emit('chain.updated');
    const deadline = Date.now() + 5_000;
    while ((await undispatched()) > 0 && Date.now() < deadline) await sleep(10);
    expect(await undispatched()).toBe(0);
    await sleep(4 * FAN_OUT_MS);
    expect(await lanePasses()).toBe(before);
  });

  it('deletes finished deliveries and handled outbox rows older than 30 days on its own', async () => {
    // One statement: the retention pass runs meanwhile, and could take the delivery before its attempt.
    const [old] = await t.core.db.execute<{ id: string }>(
      `with delivery as (
         insert into webhook_deliveries (webhook_id, event, body, status, attempts, created_at)
         values (?, 'ping', '{}', 'succeeded', 1, now() - interval '31 days') returning id
       ), attempt as (
         insert into webhook_delivery_attempts (delivery_id, attempt, started_at, status_code, duration_ms)
         select id, 1, now() - interval '31 days', 200, 5 from delivery
       )
       select id from delivery`,
      [webhookId],
    );
    await t.core.db.execute(
      `insert into webhook_outbox (user_id, event, dedupe_key, payload, created_at, dispatched_at)
       values (?, 'chain.created', 'lanes:old', '{}', now() - interval '31 days', now() - interval '31 days')`,
      [userId],
    );
    const left = () =>
      t.core.db.execute<{ n: number }>(
        `select (select count(*) from webhook_deliveries where id = ?)::int
              + (select count(*) from webhook_delivery_attempts where delivery_id = ?)::int
              + (select count(*) from webhook_outbox where dedupe_key = 'lanes:old')::int as n`,
        [old!.id, old!.id],
      );
    const deadline = Date.now() + 5_000;
    while ((await left())[0]!.n > 0 && Date.now() < deadline) await sleep(20);
    expect((await left())[0]!.n).toBe(0);
    // What the earlier tests delivered a moment ago is kept.
    expect(receiver.received.length).toBeGreaterThan(0);
    const [recent] = await t.core.db.execute<{ n: number }>(
      'select count(*)::int as n from webhook_deliveries where webhook_id = ?',
      [webhookId],
    );
    expect(recent!.n).toBe(receiver.received.length);
  });
});
