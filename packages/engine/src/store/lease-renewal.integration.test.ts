import { query } from '@verdict/core';
import { createTestCore, eventually, insertPendingDebate, type TestCore } from '@verdict/core/testing';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeAsNode } from '../testing/index.ts';

// A node renews the leases of all its debates in one statement while another transaction (a workspace's
// deletion, say) locks some of the same debates in id order: the renewal must take its locks in that order
// too, or each holds a row the other waits for (40P01).
describe('lease renewal', () => {
  let test: TestCore;
  const node = 'node-renewal';

  beforeAll(async () => {
    test = await createTestCore();
  });
  afterAll(async () => {
    await test?.cleanup();
  });

  it('locks the debates it renews in id order, so a transaction locking them in that order never deadlocks with it', async () => {
    const { id: ownerId } = await test.core.accounts.createUser({
      email: `renewal-${Date.now()}@example.com`,
      name: 'R',
      plan: 'pro',
    });
    const ids: string[] = [];
    for (let i = 0; i < 2; i++) {
      const { id } = await insertPendingDebate(
        { db: test.core.db, bus: { jobs: { enqueue: async () => {} } as never } },
        { ownerId, question: `Q${i}?`, agents: 2, rounds: 1 },
      );
      ids.push(id);
    }
    await test.core.db.execute(
      `update debates set status = 'running', lease_owner = ?, lease_epoch = 1,
         lease_expires_at = now() + interval '1 minute' where id in (?, ?)`,
      [node, ids[0], ids[1]],
    );
    const [low, high] = [...ids].sort() as [string, string];
    const store = storeAsNode(test.core, node);

    // The other transaction runs on its own; this test steers it from outside (nothing here may query
    // from inside its callback, which would be a query outside its transaction).
    let lowLocked: (pid: number) => void = () => {};
    const lowHeld = new Promise<number>((resolve) => {
      lowLocked = resolve;
    });
    let takeHigh: () => void = () => {};
    const highWanted = new Promise<void>((resolve) => {
      takeHigh = resolve;
    });
    const other = test.core.db.em().transactional(async (em) => {
      const k = query<{ debates: { id: string } }>(em);
      await k.selectFrom('debates').select('id').where('id', '=', low).forUpdate().execute();
      const [me] = (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(k)).rows;
      lowLocked(Number(me?.pid));
      await highWanted;
      await k.selectFrom('debates').select('id').where('id', '=', high).forUpdate().execute();
    });
    const pid = await lowHeld;
    // Listed highest first: an unordered update would lock `high`, then wait for `low`.
    const renewal = store.renew([
      { debateId: high, attempt: 1, epoch: 1 },
      { debateId: low, attempt: 1, epoch: 1 },
    ]) as Promise<Set<string>>;
    renewal.catch(() => {});
    await eventually(
      () =>
        test.core.db.execute<{ n: number }>(
          'select count(*)::int as n from pg_stat_activity where ? = any(pg_blocking_pids(pid))',
          [pid],
        ),
      (rows) => (rows[0]?.n ?? 0) > 0,
      10_000,
    );
    takeHigh();
    await other;
    expect([...(await renewal)].sort()).toEqual([low, high]);
  });
});
