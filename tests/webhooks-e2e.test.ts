import { createHmac } from 'node:crypto';
import { eventually, startWebhookReceiver, type WebhookReceiver } from '@verdict/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectBody } from './support/api-client.ts';
import { MODES, type ProUser, type Stack, signUpPro, startStack } from './support/stack.ts';

// User webhooks over HTTP, through the client generated from the served document, in each mode: the engine
// (a node of its own, or the embedded server's) delivers to a real local receiver (the two documented
// development settings let it reach it).
describe.each(MODES)('user webhooks end to end (%s)', (mode) => {
  let stack: Stack;
  let receiver: WebhookReceiver;
  let user: ProUser;

  const eventsReceived = () => receiver.received.map((r) => (JSON.parse(r.body) as { event: string }).event);

  beforeAll(async () => {
    stack = await startStack(mode, 'hooks', {
      WEBHOOK_ALLOW_HTTP: 'true',
      WEBHOOK_ALLOW_PRIVATE: 'true',
      ENGINE_WEBHOOK_INTERVAL_MS: '100',
    });
    receiver = await startWebhookReceiver();
    user = await signUpPro(stack, 'hooks');
  });
  afterAll(async () => {
    await receiver?.close();
    await stack?.stop();
  });

  it('registers a webhook, delivers signed debate events and a ping, redelivers, and forgets it', async () => {
    const created = expectBody(
      await user.client.POST('/api/webhooks', {
        body: { url: `${receiver.url}/verdict`, events: ['debate.completed'], description: 'CI' },
      }),
      201,
    );
    expect(created.secret).toMatch(/^whsec_/);
    const listed = expectBody(await user.client.GET('/api/webhooks'), 200);
    expect(listed.webhooks.map((w) => w.id)).toEqual([created.id]);
    expect(listed.supportedEvents).toContain('chain.created');
    expect(JSON.stringify(listed)).not.toContain(created.secret);
    const updated = expectBody(
      await user.client.PUT('/api/webhooks/{id}', {
        params: { path: { id: created.id } },
        body: { events: ['debate.created', 'debate.completed'] },
      }),
      200,
    );
    expect(updated.events).toEqual(['debate.created', 'debate.completed']);

    const { debateId } = expectBody(
      await user.client.POST('/api/debates', {
        body: { question: 'Should the release train leave every second Tuesday?', skipCache: true },
      }),
      201,
    );
    await eventually(eventsReceived, (events) => events.length >= 2, 30_000);
    // Parallel lanes promise no order between deliveries (ARCHITECTURE.md): both arrive, once each.
    expect(eventsReceived().slice().sort()).toEqual(['debate.completed', 'debate.created']);
    for (const delivery of receiver.received) {
      const expected = createHmac('sha256', created.secret).update(delivery.body).digest('hex');
      expect(delivery.headers['x-verdict-signature']).toBe(expected);
      expect(JSON.parse(delivery.body)).toMatchObject({ data: { debateId } });
    }

    const ping = expectBody(
      await user.client.POST('/api/webhooks/{id}/test', { params: { path: { id: created.id } } }),
      201,
    );
    await eventually(eventsReceived, (events) => events.includes('ping'), 15_000);
    const history = expectBody(
      await user.client.GET('/api/webhooks/{id}/deliveries', {
        params: { path: { id: created.id }, query: { limit: 10 } },
      }),
      200,
    );
    expect(history.total).toBe(3);
    expect(history.deliveries.map((d) => d.deliveryId)).toContain(ping.deliveryId);
    const completed = history.deliveries.find((d) => d.event === 'debate.completed');
    expect(completed?.status).toBe('succeeded');
    expect(completed?.attemptLog[0]?.statusCode).toBe(200);

    const again = expectBody(
      await user.client.POST('/api/webhooks/{id}/deliveries/{deliveryId}/redeliver', {
        params: { path: { id: created.id, deliveryId: completed?.deliveryId ?? '' } },
      }),
      201,
    );
    expect(again.deliveryId).not.toBe(completed?.deliveryId);
    await eventually(
      () => receiver.received.map((r) => r.headers['webhook-id']),
      (ids) => ids.includes(again.deliveryId),
      15_000,
    );

    const removed = await user.client.DELETE('/api/webhooks/{id}', { params: { path: { id: created.id } } });
    expect(removed.response.status).toBe(204);
    const gone = await user.client.GET('/api/webhooks/{id}/deliveries', {
      params: { path: { id: created.id } },
    });
    expect(gone.response.status).toBe(404);
  });
});
