import type { DebateEvent } from '@verdict/contracts';
import { createTestCore, insertPendingDebate, type TestCore } from '@verdict/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeAsNode } from '../testing/index.ts';
import { completedOutcome, testCost } from '../testing/outcomes.ts';
import type { DebateOutcome, Lease, LogBatch } from './records.ts';

const cost = testCost;
const completed = completedOutcome({
  calls: [
    { kind: 'judge', model: 'simulated/judge', inputTokens: 7, outputTokens: 9, costNanoUsd: 1200 },
    { kind: 'classifier', model: 'simulated/small', inputTokens: 3, outputTokens: 1, costNanoUsd: 40 },
  ],
});
/** A failure that was the caller's (not refunded): it ends in the same statement as completions. */
const failed: DebateOutcome = { status: 'failed', code: 'VALIDATION', message: 'no question left', cost };

// The ends of a node's debates go out in one statement: each debate's whole end (final row, credits, last
// batch, calls, webhook, outcome, embedding) is stored only under its own fence, and only once.
describe('the ends of many debates in one statement', () => {
  let test: TestCore;
  const node = 'node-finishes';
  let ownerId = '';

  beforeAll(async () => {
    test = await createTestCore();
    ({ id: ownerId } = await test.core.accounts.createUser({
      email: `finishes-${Date.now()}@example.com`,
      name: 'F',
      plan: 'pro',
    }));
  });
  afterAll(async () => {
    await test?.cleanup();
  });

  const rows = <T>(sql: string, params: unknown[]) => test.core.db.execute<T>(sql, params);

  /** A running debate leased to this node at epoch 1 (the database's is `epochInDb`), charged `charged`. */
  async function runningDebate(charged: number, epochInDb = 1): Promise<Lease> {
    const { id } = await insertPendingDebate(
      { db: test.core.db, bus: { jobs: { enqueue: async () => {} } as never } },
      { ownerId, question: `Ends ${charged}?`, agents: 3, rounds: 2 },
    );
    await rows(
      `update debates set status = 'running', lease_owner = ?, lease_epoch = ?,
         lease_expires_at = now() + interval '1 minute' where id = ?`,
      [node, epochInDb, id],
    );
    await rows(
      `insert into credit_ledger (id, user_id, delta, reason, debate_id, created_at)
       values (gen_random_uuid(), ?, ?, 'debate', ?, now())`,
      [ownerId, -charged, id],
    );
    return { debateId: id, attempt: 1, epoch: 1 };
  }

  const lastBatch = (lease: Lease, type: string): LogBatch => ({
    events: [
      {
        type,
        data: { debateId: lease.debateId },
        debateId: lease.debateId,
        attempt: 1,
        seq: 7,
        at: new Date().toISOString(),
      } as DebateEvent,
    ],
    state: { packed: JSON.stringify({ machine: { at: lease.debateId }, history: [] }), lastSeq: 7 },
    status: null,
  });

  it('stores each whole end under its own fence, and a second finish changes nothing', async () => {
    const a = await runningDebate(3);
    const b = await runningDebate(2);
    const stale = await runningDebate(1, 2);
    const store = storeAsNode(test.core, node);
    const ended = await Promise.all([
      store.finish(a, completed, lastBatch(a, 'debate.completed')),
      store.finish(b, failed, lastBatch(b, 'debate.failed')),
      store.finish(stale, completed, lastBatch(stale, 'debate.completed')),
    ]);
    expect(ended).toEqual([true, true, false]);

    const ids = `{${[a, b, stale].map((l) => l.debateId).join(',')}}`;
    const debates = await rows<{
      id: string;
      status: string;
      credits: number;
      domain: string | null;
      failure_code: string | null;
      lease_owner: string | null;
    }>(
      `select id, status, (cost->>'credits')::int as credits, domain, failure_code, lease_owner
         from debates where id = any(?::uuid[])`,
      [ids],
    );
    const byId = new Map(debates.map((d) => [d.id, d]));
    expect(byId.get(a.debateId)).toMatchObject({
      status: 'completed',
      credits: 3,
      domain: 'business',
      failure_code: null,
      lease_owner: null,
    });
    expect(byId.get(b.debateId)).toMatchObject({ status: 'failed', credits: 2, failure_code: 'VALIDATION' });
    expect(byId.get(stale.debateId)).toMatchObject({ status: 'running', lease_owner: node });

    const count = async (table: string, column = 'debate_id') =>
      Object.fromEntries(
        (
          await rows<{ id: string; n: number }>(
            `select ${column} as id, count(*)::int as n from ${table} where ${column} = any(?::uuid[]) group by 1`,
            [ids],
          )
        ).map((r) => [r.id, r.n]),
      );
    expect(await count('outcomes')).toEqual({ [a.debateId]: 1 });
    expect(await count('embedding_queue')).toEqual({ [a.debateId]: 1 });
    expect(await count('debate_calls')).toEqual({ [a.debateId]: 2 });
    expect(await count('debate_events')).toEqual({ [a.debateId]: 1, [b.debateId]: 1 });
    expect(await count('debate_snapshots')).toEqual({ [a.debateId]: 1, [b.debateId]: 1 });
    const webhooks = await rows<{ debate_id: string; event: string; user_id: string }>(
      'select debate_id, event, user_id from webhook_outbox where debate_id = any(?::uuid[]) order by event',
      [ids],
    );
    expect(webhooks).toEqual([
      { debate_id: a.debateId, event: 'debate.completed', user_id: ownerId },
      { debate_id: b.debateId, event: 'debate.failed', user_id: ownerId },
    ]);
    const [scores] = await rows<{ n: number }>(
      'select count(*)::int as n from score_queue where user_id = ?',
      [ownerId],
    );
    expect(scores?.n).toBe(1);

    // A redelivered job's second finish: nothing stored, nothing queued twice.
    expect(await store.finish(a, completed, lastBatch(a, 'debate.completed'))).toBe(false);
    expect(await count('outcomes')).toEqual({ [a.debateId]: 1 });
    const [scoresAfter] = await rows<{ n: number }>(
      'select count(*)::int as n from score_queue where user_id = ?',
      [ownerId],
    );
    expect(scoresAfter?.n).toBe(1);
  });
});
