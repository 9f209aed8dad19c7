import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestCore, newUserCredentials, type TestCore } from '../testing/index.ts';
import { RECEIVER_HOST } from '../testing/webhook-receiver.ts';
import { debatesByStatus, workBacklog } from './scrape-reads.ts';

describe('the reads of a scrape', () => {
  let t: TestCore;
  let userId: string;
  const now = Date.parse('2026-03-01T12:00:00Z');
  const clock = { now: () => now };
  const ago = (seconds: number) => new Date(now - seconds * 1000).toISOString();

  beforeAll(async () => {
    t = await createTestCore({ WEBHOOK_ALLOW_HTTP: 'true' }, { clock });
    userId = (await t.core.accounts.createUser(newUserCredentials('scrape'))).id;
  });
  afterAll(async () => {
    await t?.cleanup();
  });

  it('counts every debate status, 0 for those no debate has', async () => {
    expect(await debatesByStatus(t.core.db)).toEqual({
      pending: 0,
      running: 0,
      paused: 0,
      completed: 0,
      failed: 0,
    });
  });

  it('reads the oldest outbox row and due delivery as lags, and leaves out what a paused webhook holds', async () => {
    expect(await workBacklog(t.core.db, clock)).toEqual({
      outboxLagSeconds: 0,
      deliveryLagSeconds: 0,
      embeddingsPending: 0,
      extractionsPending: 0,
    });
    const insertOutbox = (key: string, createdAt: string, dispatchedAt: string | null) =>
      t.core.db.execute(
        `insert into webhook_outbox (user_id, event, dedupe_key, payload, created_at, dispatched_at)
         values (?, 'chain.created', ?, '{}', ?, ?)`,
        [userId, key, createdAt, dispatchedAt],
      );
    await insertOutbox('waiting', ago(90), null);
    await insertOutbox('fanned out', ago(600), ago(590));
    const hook = await t.core.webhooks.create(userId, {
      url: `http://${RECEIVER_HOST}:9/hook`,
      events: ['chain.created'],
      active: true,
    });
    const paused = await t.core.webhooks.create(userId, {
      url: `http://${RECEIVER_HOST}:9/paused`,
      events: ['chain.created'],
      active: false,
    });
    const insertDelivery = (webhookId: string, dueAt: string) =>
      t.core.db.execute(
        `insert into webhook_deliveries (webhook_id, event, body, status, due_at)
         values (?, 'chain.created', '{}', 'pending', ?)`,
        [webhookId, dueAt],
      );
    await insertDelivery(hook.id, ago(40));
    await insertDelivery(hook.id, new Date(now + 60_000).toISOString());
    await insertDelivery(paused.id, ago(3600));

    const backlog = await workBacklog(t.core.db, clock);
    expect(backlog.outboxLagSeconds).toBeCloseTo(90, 3);
    expect(backlog.deliveryLagSeconds).toBeCloseTo(40, 3);
  });
});
