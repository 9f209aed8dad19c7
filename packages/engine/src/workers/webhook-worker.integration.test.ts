import {
  createTestCore,
  newUserCredentials,
  RECEIVER_HOST,
  receiverPolicy,
  startWebhookReceiver,
  type TestCore,
  type WebhookReceiver,
} from '@verdict/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngineNode, type EngineNode } from '../node/engine-node.ts';
import type { ProbeMoment } from '../services.ts';

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
  /** What the node announced (its probe): fan-out passes, and the senders' wake signal waking and sleeping. */
  const moments: ProbeMoment[] = [];

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
      probe: (moment) => moments.push(moment),
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
  /** Polls `holds` until it does (within 5 s, else the test fails saying what it waited for). */
  const waitFor = async (what: string, holds: () => boolean | Promise<boolean>) => {
    const deadline = Date.now() + 5_000;
    while (!(await holds())) {
      if (Date.now() > deadline) throw new Error(`waited 5 s for ${what}`);
      await sleep(10);
    }
  };
  /** The senders' wake signal sleeps (it starts asleep): every lane found nothing and waits to be woken. */
  const sendersAsleep = () =>
    moments.findLast((m) => m._tag === 'WebhookSendersWoken' || m._tag === 'WebhookSendersAsleep')?._tag !==
    'WebhookSendersWoken';
  const undispatched = async () =>
    (
      await t.core.db.execute<{ n: number }>(
        'select count(*)::int as n from webhook_outbox where dispatched_at is null',
      )
    )[0]!.n;

  it('sends a delivery fanned out while every sender sleeps at once, without waiting for the scout', async () => {
    for (let round = 1; round <= 5; round++) {
      // Every lane has found nothing and gone to sleep: only a wake can bring the delivery out.
      await waitFor('the senders to sleep', sendersAsleep);
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
    await waitFor('the senders to sleep', sendersAsleep);
    const before = moments.length;
    for (let i = 0; i < 20; i++) await emit('chain.updated');
    await waitFor('the fan-out to take every row', async () => (await undispatched()) === 0);
    // The pass that took the last rows has ended (and woken the senders, if it would) once a pass ends later.
    const dispatched = moments.length;
    await waitFor('a fan-out pass to end', () =>
      moments.slice(dispatched).some((m) => m._tag === 'WebhookFannedOut'),
    );
    const since = moments.slice(before);
    const fanOuts = since.flatMap((m) => (m._tag === 'WebhookFannedOut' ? [m] : []));
    expect(fanOuts.reduce((sum, pass) => sum + pass.taken, 0)).toBe(20);
    expect(fanOuts.every((pass) => pass.queued === 0)).toBe(true);
    expect(since.filter((m) => m._tag === 'WebhookSendersWoken')).toEqual([]);
    expect(sendersAsleep()).toBe(true);
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
