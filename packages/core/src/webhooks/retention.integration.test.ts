import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { queueDebateWebhook } from '../outbox/webhook-outbox.ts';
import { openPendingOutcome } from '../outcomes/outcomes.ts';
import { refreshDueScores } from '../outcomes/scores.ts';
import { embedCompletedDebates } from '../similar/embed-completed.ts';
import type { Embedder } from '../similar/embedder.ts';
import { queueEmbedding } from '../similar/embedding-queue.ts';
import { createTestCore, insertStoredDebate, newUserCredentials, type TestCore } from '../testing/index.ts';
import {
  RECEIVER_HOST,
  receiverPolicy,
  startWebhookReceiver,
  type WebhookReceiver,
} from '../testing/webhook-receiver.ts';
import { deliverNext } from './deliveries.ts';
import { dispatchOutbox } from './dispatch.ts';
import { pruneWebhookHistory } from './retention.ts';
import { createWebhookSender, type WebhookSender } from './sender.ts';

const DAY = 86_400_000;
const RETENTION = { retentionMs: 30 * DAY, batch: 100 };

describe('webhook retention', () => {
  let t: TestCore;
  let receiver: WebhookReceiver;
  let sender: WebhookSender;
  let userId: string;
  let now = Date.now();
  const clock = { now: () => now };

  beforeAll(async () => {
    t = await createTestCore({ WEBHOOK_ALLOW_HTTP: 'true' }, { clock });
    receiver = await startWebhookReceiver();
    sender = createWebhookSender(receiverPolicy, { now: clock.now, timeoutMs: 1000 });
    userId = (await t.core.accounts.createUser(newUserCredentials('retention'))).id;
  });
  afterAll(async () => {
    await sender.close();
    await receiver.close();
    await t.cleanup();
  });
  beforeEach(async () => {
    receiver.reply(() => ({ status: 200, body: 'ok' }));
    await t.core.db.execute('delete from webhooks');
    await t.core.db.execute('delete from webhook_outbox');
  });

  const createHook = (events: string[]) =>
    t.core.webhooks.create(userId, {
      url: `http://${RECEIVER_HOST}:${receiver.port}/hook`,
      events: events as never,
      active: true,
    });
  const deliverAll = async () => {
    while (await deliverNext(t.core.db, clock, sender, 30_000));
  };
  const prune = (batch = RETENTION.batch) => pruneWebhookHistory(t.core.db, clock, { ...RETENTION, batch });
  const count = async (table: string) =>
    (await t.core.db.execute<{ n: number }>(`select count(*)::int as n from ${table}`))[0]!.n;

  it('deletes finished deliveries with their attempts once older than the retention, in bounded batches, and keeps waiting ones', async () => {
    const hook = await createHook(['chain.updated']);
    const paused = await createHook(['chain.created']);
    const start = now;
    // Succeeded, and failed after its four attempts.
    await t.core.webhooks.test(userId, hook.id);
    await deliverAll();
    receiver.reply(() => ({ status: 503, body: 'busy' }));
    await t.core.webhooks.test(userId, hook.id);
    await deliverAll();
    for (const wait of [5_000, 30_000, 300_000]) {
      now += wait;
      await deliverAll();
    }
    // Queued for a webhook then turned off: it waits, however long.
    await t.core.db.execute(
      `insert into webhook_outbox (user_id, event, dedupe_key, payload) values (?, 'chain.created', 'held', '{}')`,
      [userId],
    );
    await dispatchOutbox(t.core.db, clock, 100);
    await t.core.webhooks.update(userId, paused.id, { active: false });
    const statuses = async () =>
      (
        await t.core.db.execute<{ status: string }>('select status from webhook_deliveries order by status')
      ).map((row) => row.status);
    expect(await statuses()).toEqual(['failed', 'pending', 'succeeded']);
    expect(await count('webhook_delivery_attempts')).toBe(5);

    now = start + 30 * DAY - 60_000;
    expect((await prune()).deliveries).toBe(0);
    now = start + 30 * DAY + 360_000;
    expect((await prune(1)).deliveries).toBe(1);
    expect((await prune(1)).deliveries).toBe(1);
    expect((await prune(1)).deliveries).toBe(0);
    expect(await statuses()).toEqual(['pending']);
    expect(await count('webhook_delivery_attempts')).toBe(0);

    // What finished within the retention stays.
    receiver.reply(() => ({ status: 200, body: 'ok' }));
    await t.core.webhooks.test(userId, hook.id);
    await deliverAll();
    now += 29 * DAY;
    expect((await prune()).deliveries).toBe(0);
    expect(await statuses()).toEqual(['pending', 'succeeded']);
  });

  it('deletes old outbox rows once fanned out, whatever their event', async () => {
    const old = new Date(now - 31 * DAY).toISOString();
    const recent = new Date(now - 29 * DAY).toISOString();
    const done = new Date(now - 31 * DAY + 1000).toISOString();
    const rows: [key: string, event: string, created: string, dispatched: boolean][] = [
      ['chain handled', 'chain.created', old, true],
      ['chain not fanned out', 'chain.created', old, false],
      ['completed handled', 'debate.completed', old, true],
      ['outcome handled', 'outcome.recorded', old, true],
      ['chain recent', 'chain.created', recent, true],
    ];
    for (const [key, event, created, dispatched] of rows) {
      await t.core.db.execute(
        `insert into webhook_outbox (user_id, event, dedupe_key, payload, created_at, dispatched_at)
         values (?, ?, ?, '{}', ?, ?)`,
        [userId, event, key, created, dispatched ? done : null],
      );
    }
    expect((await prune()).outboxRows).toBe(3);
    const left = (
      await t.core.db.execute<{ dedupe_key: string }>(
        'select dedupe_key from webhook_outbox order by dedupe_key',
      )
    ).map((row) => row.dedupe_key);
    expect(left).toEqual(['chain not fanned out', 'chain recent']);
  });

  it("deletes a completed debate's outbox row while its embedding and score are still to come, and both still come", async () => {
    const debateId = await insertStoredDebate(t.core, {
      ownerId: userId,
      question: 'Move the office to Porto?',
    });
    // What the engine's finish writes in one transaction: the outcome (with its score refresh), the
    // embedding's turn, and the webhook event.
    await t.core.db.em().transactional(async (em) => {
      await openPendingOutcome(em, {
        debateId,
        confidence: 0.7,
        recommendation: 'proceed',
        domain: 'business',
      });
      await queueEmbedding(em, debateId);
      await queueDebateWebhook(em, {
        debateId,
        event: 'debate.completed',
        dedupeKey: `debate.completed:${debateId}:1`,
        payload: { debateId },
      });
    });
    await dispatchOutbox(t.core.db, clock, 100);
    const start = now;
    try {
      now += 31 * DAY;
      expect((await prune()).outboxRows).toBe(1);
      expect(await count('webhook_outbox')).toBe(0);

      const embedder: Embedder = { model: 'test:fixed', relatedAbove: 0, embed: async () => [0, 1, 0] };
      expect(await embedCompletedDebates(t.core.db, embedder, clock, 10)).toEqual({
        embedded: 1,
        failed: 0,
        abandoned: 0,
      });
      expect(await count('debate_embeddings')).toBe(1);
      expect(await refreshDueScores(t.core.db, 10)).toBe(1);
      expect((await t.core.scores.me(userId)).totalTracked).toBe(1);
      // Both are done with it: nothing is left for them.
      expect(await count('embedding_queue')).toBe(0);
      expect(await count('score_queue')).toBe(0);
    } finally {
      now = start;
    }
  });
});
