import { createHmac } from 'node:crypto';
import {
  type CreatedDebate,
  CreatedWebhook,
  QueuedWebhookDelivery,
  WEBHOOK_EVENTS,
  Webhook,
  WebhookDeliveryList,
  WebhookList,
} from '@verdict/contracts';
import {
  debateReaching,
  eventually,
  RECEIVER_HOST,
  receiverPolicy,
  startWebhookReceiver,
  type WebhookReceiver,
} from '@verdict/core/testing';
import { createEngineNode, type EngineNode } from '@verdict/engine';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectError,
  type Harness,
  registerUser,
  startServer,
  type TestUser,
} from '../../testing/http-harness.ts';

const MISSING = '00000000-0000-4000-8000-000000000000';

describe('user webhooks', () => {
  let h: Harness;
  let alice: TestUser;
  let bob: TestUser;
  let receiver: WebhookReceiver;
  let engine: EngineNode;

  beforeAll(async () => {
    h = await startServer({ env: { WEBHOOK_ALLOW_HTTP: 'true' } });
    alice = await registerUser(h);
    bob = await registerUser(h);
    receiver = await startWebhookReceiver();
    // A receiver that never answers on /slow, for the test of one slow receiver among others.
    receiver.reply((request) => (request.path === '/slow' ? 'hang' : { status: 200, body: 'ok' }));
    engine = createEngineNode({
      db: h.core.db,
      bus: h.core.bus,
      clock: h.core.clock,
      slots: 4,
      providerKeys: {},
      simulated: { firstTokenMs: 1 },
      policy: { timeoutMs: 2000, retries: 1, backoffMs: 10 },
      webhooks: {
        policy: receiverPolicy,
        intervalMs: 50,
        senders: 4,
        timeoutMs: 5000,
      },
    });
    engine.start();
  });
  afterAll(async () => {
    await engine.stop();
    await receiver.close();
    await h.close();
  });

  const hookUrl = () => `http://${RECEIVER_HOST}:${receiver.port}/hook`;
  const create = (user: TestUser, body: Record<string, unknown>) =>
    h.request('POST', '/api/webhooks', {
      cookie: user.cookie,
      body: { url: hookUrl(), events: ['ping'], ...body },
    });
  const createOk = async (user: TestUser, body: Record<string, unknown> = {}) => {
    const res = await create(user, { events: ['debate.created'], ...body });
    expect(res.status, res.text).toBe(201);
    return CreatedWebhook.parse(res.json);
  };
  const deliveriesOf = async (user: TestUser, id: string, query = '') => {
    const res = await h.request('GET', `/api/webhooks/${id}/deliveries${query}`, { cookie: user.cookie });
    expect(res.status, res.text).toBe(200);
    return WebhookDeliveryList.parse(res.json);
  };

  it('refuses a non-https URL, empty or unknown events and an overlong description with 400 VALIDATION_ERROR', async () => {
    const strict = await startServer({ env: { DATABASE_SCHEMA: h.schema } });
    try {
      const refused = await strict.request('POST', '/api/webhooks', {
        cookie: alice.cookie,
        body: { url: 'http://example.com/hook', events: ['debate.created'] },
      });
      expect(expectError(refused, 'VALIDATION_ERROR').details?.[0]?.path).toBe('url');
    } finally {
      await strict.close();
    }
    for (const body of [
      { events: [] },
      { events: ['verdict.delivered'] },
      { events: ['ping'] },
      { events: ['debate.created', 'debate.created'] },
      { events: ['debate.created'], description: 'd'.repeat(501) },
      { events: ['debate.created'], url: 'ftp://example.com/hook' },
      { events: ['debate.created'], url: 'https://169.254.169.254/latest/meta-data' },
      { events: ['debate.created'], url: 'https://[::ffff:127.0.0.1]/hook' },
      { events: ['debate.created'], secret: 'mine' },
    ]) {
      expectError(await create(alice, body), 'VALIDATION_ERROR');
    }
    expect((await h.request('GET', '/api/webhooks', { cookie: alice.cookie })).json).toMatchObject({
      webhooks: [],
    });
  });

  it('shows the secret once, then lists webhooks without it next to the supported events', async () => {
    const created = await createOk(alice, { description: 'CI', events: ['debate.created', 'chain.updated'] });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const res = await h.request('GET', '/api/webhooks', { cookie: alice.cookie });
    const list = WebhookList.parse(res.json);
    expect(res.text).not.toContain(created.secret);
    expect(list.supportedEvents).toEqual([...WEBHOOK_EVENTS]);
    expect(list.webhooks[0]).toEqual(Webhook.parse({ ...created, secret: undefined }));
    expect(list.webhooks[0]).not.toHaveProperty('secret');
    const bobs = await h.request('GET', '/api/webhooks', { cookie: bob.cookie });
    expect(WebhookList.parse(bobs.json).webhooks).toEqual([]);
    await h.request('DELETE', `/api/webhooks/${created.id}`, { cookie: alice.cookie });
  });

  it("changes only the fields sent, and answers 404 for another user's webhook on every route", async () => {
    const hook = await createOk(alice, { description: 'before' });
    const put = (user: TestUser, body: unknown) =>
      h.request('PUT', `/api/webhooks/${hook.id}`, { cookie: user.cookie, body });
    const changed = await put(alice, { events: ['outcome.recorded'], active: false, description: null });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.json).toMatchObject({
      events: ['outcome.recorded'],
      active: false,
      description: null,
      url: hook.url,
    });
    expectError(await put(alice, { events: [] }), 'VALIDATION_ERROR');
    expectError(await put(alice, { url: 'https://10.0.0.1/hook' }), 'VALIDATION_ERROR');
    for (const [method, path, body] of [
      ['PUT', `/api/webhooks/${hook.id}`, { active: true }],
      ['DELETE', `/api/webhooks/${hook.id}`, undefined],
      ['GET', `/api/webhooks/${hook.id}/deliveries`, undefined],
      ['POST', `/api/webhooks/${hook.id}/test`, undefined],
      ['POST', `/api/webhooks/${MISSING}/test`, undefined],
      ['POST', `/api/webhooks/${hook.id}/deliveries/${MISSING}/redeliver`, undefined],
    ] as const) {
      expectError(await h.request(method, path, { cookie: bob.cookie, body }), 'NOT_FOUND');
    }
    expectError(
      await h.request('POST', `/api/webhooks/${hook.id}/deliveries/${MISSING}/redeliver`, {
        cookie: alice.cookie,
      }),
      'NOT_FOUND',
    );
    const gone = await h.request('DELETE', `/api/webhooks/${hook.id}`, { cookie: alice.cookie });
    expect(gone.status).toBe(204);
    expectError(await put(alice, { active: true }), 'NOT_FOUND');
  });

  it('delivers debate.created and debate.completed of a new debate, signed, through the engine nodes', async () => {
    const hook = await createOk(alice, { events: ['debate.created', 'debate.completed'] });
    const res = await h.request<CreatedDebate>('POST', '/api/debates', {
      cookie: alice.cookie,
      body: { question: 'Should the webhook arrive within a second?', skipCache: true },
    });
    expect(res.status, res.text).toBe(201);
    await debateReaching(h.core, res.json.debateId);
    const mine = () => receiver.received.filter((r) => r.body.includes(res.json.debateId));
    await eventually(mine, (got) => got.length === 2);
    // Deliveries go out on parallel lanes: no order between them is promised (ARCHITECTURE.md).
    expect(
      mine()
        .map((r) => JSON.parse(r.body).event)
        .sort(),
    ).toEqual(['debate.completed', 'debate.created']);
    for (const got of mine()) {
      const headers = got.headers as Record<string, string>;
      expect(() => new StandardWebhook(hook.secret).verify(got.body, headers)).not.toThrow();
      expect(headers['x-verdict-signature']).toBe(
        createHmac('sha256', hook.secret).update(got.body).digest('hex'),
      );
    }
    // The receiver holds the body before the deliverer has recorded the answer: wait for the record.
    const list = await eventually(
      () => deliveriesOf(alice, hook.id),
      (got) => got.deliveries.every((d) => d.status !== 'delivering'),
    );
    expect(list.total).toBe(2);
    expect(list.deliveries.map((d) => d.status)).toEqual(['succeeded', 'succeeded']);
    await h.request('DELETE', `/api/webhooks/${hook.id}`, { cookie: alice.cookie });
  });

  it('queues debate.created for a new debate only: not for a repeated Idempotency-Key, nor for a cached answer', async () => {
    const question = 'Should debate.created be queued once per new debate?';
    const post = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
      h.request<CreatedDebate>('POST', '/api/debates', {
        cookie: alice.cookie,
        body: { question, ...body },
        headers,
      });
    const first = await post({}, { 'Idempotency-Key': 'webhooks-once' });
    expect(first.status, first.text).toBe(201);
    const replay = await post({}, { 'Idempotency-Key': 'webhooks-once' });
    expect(replay.json.debateId).toBe(first.json.debateId);
    await debateReaching(h.core, first.json.debateId);
    const cached = await post({});
    expect(cached.json).toMatchObject({ debateId: first.json.debateId, cached: true });
    const created = await h.core.db.execute<{ debate_id: string }>(
      `select debate_id from webhook_outbox where event = 'debate.created' and payload->>'question' = ?`,
      [question],
    );
    expect(created.map((row) => row.debate_id)).toEqual([first.json.debateId]);
  });

  it('keeps delivering to other webhooks while one receiver takes its whole timeout', async () => {
    const slow = await createOk(alice, { url: `http://${RECEIVER_HOST}:${receiver.port}/slow` });
    const fast = await createOk(alice);
    await h.request('POST', `/api/webhooks/${slow.id}/test`, { cookie: alice.cookie });
    await eventually(
      () => receiver.received.filter((r) => r.path === '/slow').length,
      (n) => n === 1,
    );
    const sent = performance.now();
    await h.request('POST', `/api/webhooks/${fast.id}/test`, { cookie: alice.cookie });
    await eventually(
      () => deliveriesOf(alice, fast.id),
      (list) => list.deliveries[0]?.status === 'succeeded',
    );
    expect(performance.now() - sent).toBeLessThan(2000);
    expect((await deliveriesOf(alice, slow.id)).deliveries[0]?.status).toBe('delivering');
    for (const hook of [slow, fast])
      await h.request('DELETE', `/api/webhooks/${hook.id}`, { cookie: alice.cookie });
  });

  it('answers a redelivery or test ping racing the deletion of its webhook with 201 or 404, never 500', async () => {
    const statuses = new Set<number>();
    for (let round = 0; round < 10; round++) {
      const hook = await createOk(alice);
      const ping = await h.request('POST', `/api/webhooks/${hook.id}/test`, { cookie: alice.cookie });
      const { deliveryId } = QueuedWebhookDelivery.parse(ping.json);
      const [removed, ...queued] = await Promise.all([
        h.request('DELETE', `/api/webhooks/${hook.id}`, { cookie: alice.cookie }),
        h.request('POST', `/api/webhooks/${hook.id}/deliveries/${deliveryId}/redeliver`, {
          cookie: alice.cookie,
        }),
        h.request('POST', `/api/webhooks/${hook.id}/test`, { cookie: alice.cookie }),
      ]);
      expect(removed.status, removed.text).toBe(204);
      for (const res of queued) {
        expect([201, 404], res.text).toContain(res.status);
        if (res.status === 404) expectError(res, 'NOT_FOUND');
        statuses.add(res.status);
      }
    }
    expect(statuses.has(404)).toBe(true);
  });

  it('records a test ping, redelivers it under a new deliveryId, and pages the history newest first', async () => {
    const hook = await createOk(alice);
    const ping = await h.request('POST', `/api/webhooks/${hook.id}/test`, { cookie: alice.cookie });
    expect(ping.status, ping.text).toBe(201);
    const { deliveryId } = QueuedWebhookDelivery.parse(ping.json);
    await eventually(
      () => deliveriesOf(alice, hook.id),
      (list) => list.deliveries[0]?.status === 'succeeded',
    );
    const again = await h.request('POST', `/api/webhooks/${hook.id}/deliveries/${deliveryId}/redeliver`, {
      cookie: alice.cookie,
    });
    expect(again.status, again.text).toBe(201);
    const redelivered = QueuedWebhookDelivery.parse(again.json).deliveryId;
    expect(redelivered).not.toBe(deliveryId);
    const both = await eventually(
      () => deliveriesOf(alice, hook.id),
      (list) => list.deliveries.every((d) => d.status === 'succeeded') && list.total === 2,
    );
    expect(both.deliveries.map((d) => d.deliveryId)).toEqual([redelivered, deliveryId]);
    expect(both.deliveries[0]).toMatchObject({ event: 'ping', redeliveryOf: deliveryId });
    expect(both.deliveries[0]!.attemptLog[0]).toMatchObject({
      attempt: 1,
      statusCode: 200,
      responseBody: 'ok',
    });
    const bodies = receiver.received.filter((r) =>
      [deliveryId, redelivered].includes(String(r.headers['webhook-id'])),
    );
    expect(new Set(bodies.map((r) => r.body)).size).toBe(1);
    const page = await deliveriesOf(alice, hook.id, '?limit=1&offset=1');
    expect(page).toMatchObject({ total: 2, limit: 1, offset: 1 });
    expect(page.deliveries.map((d) => d.deliveryId)).toEqual([deliveryId]);
    for (const query of ['?limit=0', '?limit=101', '?offset=-1', '?limit=x']) {
      expectError(
        await h.request('GET', `/api/webhooks/${hook.id}/deliveries${query}`, { cookie: alice.cookie }),
        'VALIDATION_ERROR',
      );
    }
    const removed = await h.request('DELETE', `/api/webhooks/${hook.id}`, { cookie: alice.cookie });
    expect(removed.status).toBe(204);
    const [left] = await h.core.db.execute<{ n: number }>(
      'select count(*)::int as n from webhook_deliveries where webhook_id = ?',
      [hook.id],
    );
    expect(left!.n).toBe(0);
  });
});
