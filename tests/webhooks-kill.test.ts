import type { Core } from '@verdict/core';
import {
  createTestCore,
  eventually,
  newUserCredentials,
  startWebhookReceiver,
  type TestCore,
  testDatabaseUrl,
  testNatsUrl,
  uniqueSchema,
  type WebhookReceiver,
} from '@verdict/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningEngine, startEngine } from './support/processes.ts';

// Engine nodes as real processes deliver to a real receiver. The receiver holds its first requests without
// answering, the node sending them is SIGKILLed mid-delivery, and two fresh nodes take over: every delivery
// must arrive (the killed ones again, with the same webhook-id and body), and none is answered twice.
describe('webhook delivery across SIGKILL and several nodes', () => {
  const DELIVERIES = 40;
  const SENDERS = 4;
  const prefix = uniqueSchema('hookkill');
  const env = {
    DATABASE_URL: testDatabaseUrl(),
    DATABASE_SCHEMA: uniqueSchema('hookkill'),
    NATS_URL: testNatsUrl(),
    NATS_PREFIX: `${prefix}.`,
    // The receiver is a local http server: the two documented development settings let nodes reach it.
    WEBHOOK_ALLOW_HTTP: 'true',
    WEBHOOK_ALLOW_PRIVATE: 'true',
    ENGINE_WEBHOOK_INTERVAL_MS: '100',
    WEBHOOK_SENDERS: String(SENDERS),
    ENGINE_SLOTS: '1',
  };
  let t: TestCore;
  let core: Core;
  let receiver: WebhookReceiver;
  const engines: RunningEngine[] = [];

  beforeAll(async () => {
    t = await createTestCore(env);
    core = t.core;
    receiver = await startWebhookReceiver();
  }, 60_000);
  afterAll(async () => {
    for (const engine of engines) await engine.stop('SIGKILL');
    await receiver.close();
    await (core.bus as { deleteStreams?: () => Promise<void> }).deleteStreams?.();
    await t.cleanup();
  });

  const statuses = () =>
    core.db.execute<{ status: string; n: number }>(
      'select status, count(*)::int as n from webhook_deliveries group by status order by status',
    );

  it('loses no delivery to a killed node and sends none twice once answered', async () => {
    const user = await core.accounts.createUser(newUserCredentials('hookkill'));
    const hook = await core.webhooks.create(user.id, {
      url: `${receiver.url}/hook`,
      events: ['chain.created'],
      active: true,
    });
    let holding = true;
    const answered = new Map<string, number>();
    receiver.reply((request) => {
      if (holding) return 'hang';
      const id = String(request.headers['webhook-id']);
      answered.set(id, (answered.get(id) ?? 0) + 1);
      return { status: 200, body: 'ok' };
    });
    await core.db.execute(
      `insert into webhook_outbox (user_id, event, dedupe_key, payload)
       select ?, 'chain.created', 'kill:' || i, jsonb_build_object('chainId', i) from generate_series(1, ?) i`,
      [user.id, DELIVERIES],
    );

    const doomed = await startEngine(env);
    engines.push(doomed);
    // The node is mid-delivery: its senders each hold a request the receiver has not answered.
    await eventually(
      () => receiver.received.length,
      (n) => n >= SENDERS,
      30_000,
    );
    const inFlight = receiver.received.map((r) => ({ id: String(r.headers['webhook-id']), body: r.body }));
    await doomed.stop('SIGKILL');
    holding = false;
    expect((await statuses()).find((s) => s.status === 'delivering')?.n).toBe(SENDERS);

    engines.push(await startEngine(env), await startEngine(env));
    await eventually(statuses, (rows) => rows.length === 1 && rows[0]?.status === 'succeeded', 60_000);

    const deliveries = await core.db.execute<{ id: string; body: string; attempts: number }>(
      'select id, body, attempts from webhook_deliveries where webhook_id = ?',
      [hook.id],
    );
    expect(deliveries).toHaveLength(DELIVERIES);
    // Every delivery answered exactly once: none lost, no two nodes sending the same one.
    expect([...answered.keys()].sort()).toEqual(deliveries.map((d) => d.id).sort());
    expect([...answered.values()].every((n) => n === 1)).toBe(true);
    // The killed sends came again under the same id with the same bytes.
    for (const lost of inFlight) {
      const again = receiver.received.filter((r) => r.headers['webhook-id'] === lost.id);
      expect(again.length, lost.id).toBe(2);
      expect(again[1]!.body).toBe(lost.body);
    }
    expect(deliveries.every((d) => d.attempts === 1)).toBe(true);
  }, 120_000);
});
