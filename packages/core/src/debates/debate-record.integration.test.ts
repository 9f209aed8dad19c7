import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestCore, insertStoredDebate, type TestCore } from '../testing/index.ts';
import { addDebateViews, removeDebatePermanently, requeue, resetForRetry } from './debate-record.ts';

describe("a debate's record", () => {
  let test: TestCore;
  let ownerId: string;

  const rows = <T>(text: string, params: unknown[] = []) => test.core.db.execute<T>(text, params);
  const count = async (table: string, debateId: string) =>
    (await rows<{ n: number }>(`select count(*)::int as n from ${table} where debate_id = ?`, [debateId]))[0]
      ?.n;
  const inTransaction = <T>(run: (em: EntityManager) => Promise<T>) => test.core.db.em().transactional(run);

  /** A failed first attempt with an event, a turn and a snapshot stored. */
  async function failedWithLog(): Promise<string> {
    const id = await insertStoredDebate({ db: test.core.db }, { ownerId, question: 'Q?', status: 'failed' });
    await rows(
      `update debates set failure_code = 'PROVIDER_ERROR', failure_message = 'down', interruptions = 2,
         lease_owner = 'node-a' where id = ?`,
      [id],
    );
    await rows(
      `insert into debate_events (debate_id, attempt, seq, type, data) values (?, 1, 1, 'x', '{}')`,
      [id],
    );
    await rows(
      `insert into debate_turns (debate_id, attempt, round, agent, content, model, input_tokens, output_tokens)
       values (?, 1, 1, 0, 'c', 'm', 1, 1)`,
      [id],
    );
    await rows(`insert into debate_snapshots (debate_id, attempt, state, last_seq) values (?, 1, '{}', 1)`, [
      id,
    ]);
    return id;
  }

  beforeAll(async () => {
    test = await createTestCore();
    ownerId = randomUUID();
    await rows(`insert into users (id, email, name) values (?, ?, 'T')`, [ownerId, `${ownerId}@example.com`]);
  }, 60_000);
  afterAll(async () => {
    await test?.cleanup();
  });

  it("resets a failed debate to its next attempt, clearing that debate's log and no other's", async () => {
    const retried = await failedWithLog();
    const other = await failedWithLog();
    const attempt = await inTransaction<number>((em) => resetForRetry(em, retried, 'user_credits'));
    expect(attempt).toBe(2);
    const [row] = await rows<Record<string, unknown>>(
      `select status, attempt, failure_code, failure_message, interruptions, lease_owner, completed_at
         from debates where id = ?`,
      [retried],
    );
    expect(row).toEqual({
      status: 'pending',
      attempt: 2,
      failure_code: null,
      failure_message: null,
      interruptions: 0,
      lease_owner: null,
      completed_at: null,
    });
    for (const table of ['debate_events', 'debate_turns', 'debate_snapshots']) {
      expect(await count(table, retried)).toBe(0);
      expect(await count(table, other)).toBe(1);
    }
  });

  it('adds each debate its own views in one call, and leaves the rest', async () => {
    const [a, b, untouched] = await Promise.all(
      [3, 0, 5].map((viewCount) =>
        insertStoredDebate({ db: test.core.db }, { ownerId, question: 'V?', viewCount }),
      ),
    );
    await addDebateViews(test.core.db.em(), [
      { debateId: a as string, n: 2 },
      { debateId: b as string, n: 7 },
    ]);
    await addDebateViews(test.core.db.em(), []);
    const views = await rows<{ id: string; view_count: number }>(
      'select id, view_count from debates where id in (?, ?, ?)',
      [a, b, untouched],
    );
    expect(Object.fromEntries(views.map((v) => [v.id, v.view_count]))).toEqual({
      [a as string]: 5,
      [b as string]: 7,
      [untouched as string]: 5,
    });
  });

  it("removes only its owner's debate, leaving a tombstone, and a second removal changes nothing", async () => {
    const id = await insertStoredDebate({ db: test.core.db }, { ownerId, question: 'R?' });
    await inTransaction((em) => removeDebatePermanently(em, { id, ownerId: randomUUID() }));
    expect(await rows('select id from debates where id = ?', [id])).toHaveLength(1);
    for (let i = 0; i < 2; i++) await inTransaction((em) => removeDebatePermanently(em, { id, ownerId }));
    expect(await rows('select id from debates where id = ?', [id])).toHaveLength(0);
    expect(await rows('select owner_id from deleted_debates where id = ?', [id])).toEqual([
      { owner_id: ownerId },
    ]);
  });

  it("takes over every unfinished debate but the node's own, freeing their leases", async () => {
    const held = await insertStoredDebate(
      { db: test.core.db },
      { ownerId, question: 'H?', status: 'running' },
    );
    const mine = await insertStoredDebate(
      { db: test.core.db },
      { ownerId, question: 'M?', status: 'running' },
    );
    const done = await insertStoredDebate({ db: test.core.db }, { ownerId, question: 'D?' });
    await rows(`update debates set lease_owner = 'node-b', lease_expires_at = now() where id in (?, ?)`, [
      held,
      done,
    ]);
    await rows(`update debates set lease_owner = 'node-a' where id = ?`, [mine]);
    const taken = await requeue.takeOverAll(test.core.db.em(), 'node-a');
    const ids = taken.map((job) => job.debateId);
    expect(ids).toContain(held);
    expect(ids).not.toContain(mine);
    expect(ids).not.toContain(done);
    const [row] = await rows<{ lease_owner: string | null; stamped: boolean }>(
      'select lease_owner, requeued_at is not null as stamped from debates where id = ?',
      [held],
    );
    expect(row).toEqual({ lease_owner: null, stamped: true });
    await requeue.unstamp(test.core.db.em(), []);
    await requeue.unstamp(test.core.db.em(), [held]);
    expect(await rows('select requeued_at from debates where id = ?', [held])).toEqual([
      { requeued_at: null },
    ]);
  });
});
