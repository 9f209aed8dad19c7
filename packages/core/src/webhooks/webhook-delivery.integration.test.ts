import { createHmac } from 'node:crypto';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { queueUserWebhook } from '../outbox/webhook-outbox.ts';
import { createTestCore, newUserCredentials, type TestCore } from '../testing/index.ts';
import {
  RECEIVER_HOST,
  receiverPolicy,
  startWebhookReceiver,
  type WebhookReceiver,
} from '../testing/webhook-receiver.ts';
import { anyDeliveryDue, claimDueDelivery, deliverNext, recordAttempt } from './deliveries.ts';
import { dispatchOutbox } from './dispatch.ts';
import { createWebhookSender, type WebhookSender } from './sender.ts';

const CLAIM_MS = 30_000;

describe('webhook delivery', () => {
  let t: TestCore;
  let receiver: WebhookReceiver;
  let sender: WebhookSender;
  let userId: string;
  // Real time to start with: receivers check webhook-timestamp against their own clock.
  let now = Date.now();
  const clock = { now: () => now };

  beforeAll(async () => {
    t = await createTestCore({ WEBHOOK_ALLOW_HTTP: 'true' }, { clock });
    receiver = await startWebhookReceiver();
    sender = createWebhookSender(receiverPolicy, { now: clock.now, timeoutMs: 1000 });
    userId = (await t.core.accounts.createUser(newUserCredentials('hooks'))).id;
  });
  afterAll(async () => {
    await sender.close();
    await receiver.close();
    await t.cleanup();
  });
  beforeEach(async () => {
    receiver.received.length = 0;
    receiver.reply(() => ({ status: 200, body: 'ok' }));
    await t.core.db.execute('delete from webhooks');
  });

  const hookUrl = `http://${RECEIVER_HOST}:PORT/hook`;
  const createHook = (events: string[] = ['chain.created'], active = true) =>
    t.core.webhooks.create(userId, {
      url: hookUrl.replace('PORT', String(receiver.port)),
      events: events as never,
      active,
    });
  let seq = 0;
  const emit = (event: 'chain.created' | 'chain.updated' = 'chain.created') =>
    t.core.db
      .em()
      .transactional((em) =>
        queueUserWebhook(em, { userId, event, dedupeKey: `test:${seq++}`, payload: { chainId: `c${seq}` } }),
      );
  const deliverAll = async () => {
    let n = 0;
    while (await deliverNext(t.core.db, clock, sender, CLAIM_MS)) n++;
    return n;
  };
  const deliveries = (webhookId: string) =>
    t.core.webhooks.deliveries(userId, { id: webhookId, limit: 100, offset: 0 });

  it('fans an outbox event out once to each active webhook subscribed to it, and to no other', async () => {
    const subscribed = await createHook(['chain.created', 'chain.updated']);
    const other = await createHook(['chain.updated']);
    const inactive = await createHook(['chain.created'], false);
    await emit('chain.created');
    // Other tests' rows may still wait in the outbox: this one's queues exactly one delivery.
    const first = await dispatchOutbox(t.core.db, clock, 100);
    expect(first.taken).toBeGreaterThanOrEqual(1);
    expect(first.queued).toBe(1);
    expect(await dispatchOutbox(t.core.db, clock, 100)).toEqual({ taken: 0, queued: 0 });
    expect((await deliveries(subscribed.id)).total).toBe(1);
    expect((await deliveries(other.id)).total).toBe(0);
    expect((await deliveries(inactive.id)).total).toBe(0);
  });

  it('says it queued nothing when the rows it took are events no webhook wants, so no sender need wake', async () => {
    await createHook(['chain.created']);
    while ((await dispatchOutbox(t.core.db, clock, 100)).taken > 0);
    await emit('chain.updated');
    await emit('chain.updated');
    expect(await dispatchOutbox(t.core.db, clock, 100)).toEqual({ taken: 2, queued: 0 });
    expect(await anyDeliveryDue(t.core.db, clock)).toBe(false);
  });

  it('sends a body that a Standard Webhooks library and a plain HMAC both verify with the one secret', async () => {
    const hook = await createHook();
    await emit();
    await dispatchOutbox(t.core.db, clock, 100);
    expect(await deliverAll()).toBe(1);
    const [got] = receiver.received;
    const headers = got!.headers as Record<string, string>;
    expect(new StandardWebhook(hook.secret).verify(got!.body, headers)).toMatchObject({
      event: 'chain.created',
    });
    const hmac = createHmac('sha256', hook.secret).update(got!.body).digest('hex');
    expect(headers['x-verdict-signature']).toBe(hmac);
    expect(headers['content-type']).toBe('application/json');
    const body = JSON.parse(got!.body);
    expect(Object.keys(body)).toEqual(['event', 'id', 'timestamp', 'data']);
    expect(body.data).toEqual({ chainId: `c${seq}` });
    const [delivery] = (await deliveries(hook.id)).deliveries;
    expect(headers['webhook-id']).toBe(delivery!.deliveryId);
    expect(delivery).toMatchObject({
      status: 'succeeded',
      attempts: 1,
      lastStatusCode: 200,
      payload: got!.body,
    });
    expect(delivery!.attemptLog).toEqual([
      expect.objectContaining({ attempt: 1, statusCode: 200, responseBody: 'ok', error: null }),
    ]);
  });

  it('retries at exactly 5 s, 30 s and 5 min after each failure, then gives up, with one id and body throughout', async () => {
    const hook = await createHook();
    receiver.reply(() => ({ status: 503, body: 'busy' }));
    await emit();
    await dispatchOutbox(t.core.db, clock, 100);
    for (const wait of [5_000, 30_000, 300_000]) {
      expect(await deliverAll()).toBe(1);
      const [pending] = (await deliveries(hook.id)).deliveries;
      expect(pending!.status).toBe('pending');
      expect(Date.parse(pending!.nextAttemptAt!)).toBe(now + wait);
      now += wait - 1;
      expect(await anyDeliveryDue(t.core.db, clock)).toBe(false);
      expect(await deliverAll()).toBe(0);
      now += 1;
      expect(await anyDeliveryDue(t.core.db, clock)).toBe(true);
    }
    expect(await deliverAll()).toBe(1);
    now += 3_600_000;
    expect(await deliverAll()).toBe(0);
    const [failed] = (await deliveries(hook.id)).deliveries;
    expect(failed).toMatchObject({ status: 'failed', attempts: 4, lastStatusCode: 503, nextAttemptAt: null });
    expect(failed!.attemptLog.map((a) => [a.attempt, a.statusCode, a.responseBody])).toEqual([
      [1, 503, 'busy'],
      [2, 503, 'busy'],
      [3, 503, 'busy'],
      [4, 503, 'busy'],
    ]);
    expect(new Set(receiver.received.map((r) => r.headers['webhook-id']))).toEqual(
      new Set([failed!.deliveryId]),
    );
    expect(new Set(receiver.received.map((r) => r.body)).size).toBe(1);
  });

  it('deactivates the webhook on 410 Gone and gives the delivery up at once', async () => {
    const hook = await createHook();
    receiver.reply(() => ({ status: 410, body: 'gone' }));
    await emit();
    await emit();
    await dispatchOutbox(t.core.db, clock, 100);
    await deliverNext(t.core.db, clock, sender, CLAIM_MS);
    expect(await deliverAll()).toBe(0);
    const list = await deliveries(hook.id);
    expect(list.deliveries.map((d) => d.status)).toEqual(['failed', 'failed']);
    expect(list.deliveries.map((d) => d.attempts).sort()).toEqual([0, 1]);
    expect(receiver.received).toHaveLength(1);
    expect((await t.core.webhooks.list(userId)).webhooks[0]!.active).toBe(false);
    await emit();
    await dispatchOutbox(t.core.db, clock, 100);
    expect((await deliveries(hook.id)).total).toBe(2);
  });

  it('holds what was queued for a webhook turned off, sends its explicit pings, and resumes when it is on', async () => {
    const hook = await createHook();
    await emit();
    await dispatchOutbox(t.core.db, clock, 100);
    await t.core.webhooks.update(userId, hook.id, { active: false });
    // Idle senders learn of work from this read: what a paused webhook holds must not wake them.
    expect(await anyDeliveryDue(t.core.db, clock)).toBe(false);
    const ping = await t.core.webhooks.test(userId, hook.id);
    expect(await anyDeliveryDue(t.core.db, clock)).toBe(true);
    expect(await deliverAll()).toBe(1);
    expect(receiver.received.map((r) => r.headers['webhook-id'])).toEqual([ping.deliveryId]);
    await t.core.webhooks.update(userId, hook.id, { active: true });
    expect(await deliverAll()).toBe(1);
    expect(receiver.received).toHaveLength(2);
  });

  it('redelivers the original body under a new deliveryId, and records a test ping in the history', async () => {
    const hook = await createHook();
    await emit();
    await dispatchOutbox(t.core.db, clock, 100);
    await deliverAll();
    const [original] = (await deliveries(hook.id)).deliveries;
    const again = await t.core.webhooks.redeliver(userId, hook.id, original!.deliveryId);
    expect(again.deliveryId).not.toBe(original!.deliveryId);
    const ping = await t.core.webhooks.test(userId, hook.id);
    expect(await deliverAll()).toBe(2);
    const byId = new Map(receiver.received.map((r) => [r.headers['webhook-id'], r.body]));
    expect(byId.get(again.deliveryId)).toBe(original!.payload);
    expect(JSON.parse(byId.get(ping.deliveryId)!)).toMatchObject({
      event: 'ping',
      id: ping.deliveryId,
      data: { webhookId: hook.id },
    });
    const list = await deliveries(hook.id);
    expect(list.deliveries.find((d) => d.deliveryId === again.deliveryId)).toMatchObject({
      redeliveryOf: original!.deliveryId,
      status: 'succeeded',
    });
    expect(list.deliveries.find((d) => d.deliveryId === ping.deliveryId)).toMatchObject({ event: 'ping' });
  });

  it('keeps the first 1 KB of an answer, and records a timeout as an attempt without a status', async () => {
    const hook = await createHook();
    receiver.reply(() => ({ status: 500, body: 'x'.repeat(5000) }));
    const bigAnswer = await t.core.webhooks.test(userId, hook.id);
    await deliverAll();
    receiver.reply(() => 'hang');
    const noAnswer = await t.core.webhooks.test(userId, hook.id);
    await deliverAll();
    const list = (await deliveries(hook.id)).deliveries;
    const big = list.find((d) => d.deliveryId === bigAnswer.deliveryId);
    const timedOut = list.find((d) => d.deliveryId === noAnswer.deliveryId);
    expect(big!.attemptLog[0]!.responseBody).toBe('x'.repeat(1024));
    expect(timedOut!.attemptLog[0]).toMatchObject({ statusCode: null, error: 'timed out' });
    expect(timedOut!.attemptLog[0]!.durationMs).toBeGreaterThanOrEqual(900);
  });

  it('records an answer holding NUL bytes and invalid UTF-8 without them, and the delivery ends there', async () => {
    const hook = await createHook();
    const answer = Buffer.concat([
      Buffer.from('accepted\0id=7\0'),
      Buffer.from([0xff, 0xfe]),
      Buffer.from('é'.repeat(600)),
    ]);
    receiver.reply(() => ({ status: 200, body: answer }));
    const ping = await t.core.webhooks.test(userId, hook.id);
    expect(await deliverAll()).toBe(1);
    // Nothing is left to send again: neither now nor once the claim would have run out.
    now += CLAIM_MS;
    expect(await deliverAll()).toBe(0);
    expect(receiver.received).toHaveLength(1);
    const [delivery] = (await deliveries(hook.id)).deliveries;
    expect(delivery).toMatchObject({ deliveryId: ping.deliveryId, status: 'succeeded', attempts: 1 });
    const excerpt = delivery!.attemptLog[0]!.responseBody!;
    expect(excerpt.startsWith('acceptedid=7\ufffd\ufffdéé')).toBe(true);
    expect(excerpt).not.toContain('\u0000');
    expect(Buffer.byteLength(excerpt)).toBeLessThanOrEqual(1024);
  });

  it('records an attempt whose answer the database refuses without that answer, so the delivery moves on', async () => {
    const hook = await createHook();
    await t.core.webhooks.test(userId, hook.id);
    const claimed = await claimDueDelivery(t.core.db, clock, CLAIM_MS);
    const unstorable = {
      startedAt: new Date(now),
      durationMs: 3,
      statusCode: 503,
      responseExcerpt: 'busy\0',
      error: null,
    };
    expect(await recordAttempt(t.core.db, clock, claimed!, unstorable)).toBe(true);
    const [delivery] = (await deliveries(hook.id)).deliveries;
    expect(delivery).toMatchObject({ status: 'pending', attempts: 1, lastStatusCode: 503 });
    expect(Date.parse(delivery!.nextAttemptAt!)).toBe(now + 5_000);
    expect(delivery!.attemptLog).toEqual([
      expect.objectContaining({
        attempt: 1,
        statusCode: 503,
        responseBody: null,
        error: expect.stringContaining('could not be recorded'),
      }),
    ]);
  });

  it('sends a delivery again, same id and body, once the claim of a node that died mid-send runs out', async () => {
    const hook = await createHook();
    await t.core.webhooks.test(userId, hook.id);
    const lost = await claimDueDelivery(t.core.db, clock, CLAIM_MS);
    expect(lost).not.toBeNull();
    expect(await deliverAll()).toBe(0);
    now += CLAIM_MS;
    expect(await deliverAll()).toBe(1);
    expect(receiver.received[0]!.headers['webhook-id']).toBe(lost!.deliveryId);
    expect(receiver.received[0]!.body).toBe(lost!.body);
    const late = {
      startedAt: new Date(now),
      durationMs: 1,
      statusCode: 200,
      responseExcerpt: '',
      error: null,
    };
    expect(await recordAttempt(t.core.db, clock, lost!, late)).toBe(false);
    expect((await deliveries(hook.id)).deliveries[0]).toMatchObject({ status: 'succeeded', attempts: 1 });
  });

  it('lets many senders of two nodes work together without ever sending one delivery twice', async () => {
    const hooks = [await createHook(), await createHook()];
    for (let i = 0; i < 100; i++) await emit();
    await Promise.all([dispatchOutbox(t.core.db, clock, 30), dispatchOutbox(t.core.db, clock, 30)]);
    while ((await dispatchOutbox(t.core.db, clock, 30)).taken > 0);
    const otherNode = createWebhookSender(receiverPolicy, { now: clock.now });
    try {
      const lane = async (s: WebhookSender) => {
        while (await deliverNext(t.core.db, clock, s, CLAIM_MS));
      };
      await Promise.all([
        lane(sender),
        lane(sender),
        lane(sender),
        lane(otherNode),
        lane(otherNode),
        lane(otherNode),
      ]);
    } finally {
      await otherNode.close();
    }
    const counts = receiver.countsById();
    expect(counts.size).toBe(200);
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
    for (const hook of hooks) expect((await deliveries(hook.id)).total).toBe(100);
  });

  it('answers NOT_FOUND, never a database error, to a redelivery or test ping racing the deletion of its webhook', async () => {
    let raced = 0;
    for (let round = 0; round < 20; round++) {
      const hook = await createHook();
      const first = await t.core.webhooks.test(userId, hook.id);
      const [removed, redelivered, pinged] = await Promise.allSettled([
        t.core.webhooks.remove(userId, hook.id),
        t.core.webhooks.redeliver(userId, hook.id, first.deliveryId),
        t.core.webhooks.test(userId, hook.id),
      ]);
      expect(removed.status).toBe('fulfilled');
      for (const outcome of [redelivered, pinged]) {
        if (outcome.status === 'fulfilled') continue;
        raced++;
        expect(outcome.reason).toMatchObject({ name: 'AppError', code: 'NOT_FOUND' });
      }
    }
    // Whichever won each race, nothing of the webhooks is left.
    const [left] = await t.core.db.execute<{ n: number }>(
      'select count(*)::int as n from webhook_deliveries',
    );
    expect(left!.n).toBe(0);
    expect(raced).toBeGreaterThan(0);
  });

  it('deletes a webhook with its deliveries and their attempts', async () => {
    const hook = await createHook();
    await t.core.webhooks.test(userId, hook.id);
    await deliverAll();
    await t.core.webhooks.remove(userId, hook.id);
    const [left] = await t.core.db.execute<{ n: number }>(
      'select (select count(*) from webhook_deliveries)::int + (select count(*) from webhook_delivery_attempts)::int as n',
    );
    expect(left!.n).toBe(0);
  });
});
