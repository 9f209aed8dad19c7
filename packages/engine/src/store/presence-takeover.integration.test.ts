import { createTestCore, insertPendingDebate, type TestCore } from '@verdict/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeAsNode } from '../testing/index.ts';

// A node that died lost its presence with its database session: another node takes its debates over when
// their job comes back, long before their lease runs out. A node that is alive keeps them.
describe('taking over the debates of a node that is gone', () => {
  let test: TestCore;

  beforeAll(async () => {
    test = await createTestCore();
  });
  afterAll(async () => {
    await test?.cleanup();
  });

  const pendingDebate = async () => {
    const { id: ownerId } = await test.core.accounts.createUser({
      email: `presence-${Date.now()}-${Math.random()}@example.com`,
      name: 'P',
      plan: 'pro',
    });
    const { id } = await insertPendingDebate(
      { db: test.core.db, bus: { jobs: { enqueue: async () => {} } as never } },
      { ownerId, question: 'Who holds it?', agents: 2, rounds: 1 },
    );
    return { debateId: id, attempt: 1 };
  };

  const present = async (name: string) =>
    (
      await test.core.db.execute<{ n: number }>(
        `select count(*)::int as n from pg_locks
          where locktype = 'advisory' and granted and objsubid = 2 and objid = hashtext(?)::oid`,
        [name],
      )
    )[0]?.n === 1;

  it('leaves a live holder its debate, and takes it at once when the holder is gone', async () => {
    const hold = test.core.db.holdPresence;
    if (!hold) throw new Error('distributed mode holds presence');
    const job = await pendingDebate();
    expect(await present('node-a')).toBe(false);
    let held = 0;
    const endA = await hold('node-a', { onHeld: () => held++, onLost: () => {} });
    expect(held).toBe(1);
    expect(await present('node-a')).toBe(true);

    // A one-minute lease: only presence can hand it over before the test ends.
    const a = storeAsNode(test.core, 'node-a', 60_000);
    const b = storeAsNode(test.core, 'node-b', 60_000);
    expect(await a.claim(job)).toMatchObject({ kind: 'claimed', lease: { epoch: 1 }, takenFrom: null });
    const stillHeld = await b.claim(job);
    expect(stillHeld.kind).toBe('held');
    expect(stillHeld.kind === 'held' && stillHeld.remainingMs).toBeGreaterThan(50_000);

    await endA();
    expect(await present('node-a')).toBe(false);
    // Taken over with a minute of the lease left: the holder's presence is what handed it over.
    expect(await b.claim(job)).toMatchObject({
      kind: 'claimed',
      lease: { epoch: 2 },
      takenFrom: 'holder_gone',
    });
    // The node that was gone and comes back finds it held by a node that is present.
    const endB = await hold('node-b', { onHeld: () => {}, onLost: () => {} });
    try {
      expect((await a.claim(job)).kind).toBe('held');
    } finally {
      await endB();
    }
    // A lease that ran out is taken over for that reason.
    await test.core.db.execute(
      `update debates set lease_expires_at = now() - interval '1 second' where id = ?`,
      [job.debateId],
    );
    expect(await a.claim(job)).toMatchObject({
      kind: 'claimed',
      lease: { epoch: 3 },
      takenFrom: 'lease_expired',
    });
  });

  it('holds one presence per name: a second session of the same name gets it only once the first is gone', async () => {
    const hold = test.core.db.holdPresence;
    if (!hold) throw new Error('distributed mode holds presence');
    const first = await hold('node-twice', { onHeld: () => {}, onLost: () => {} });
    let secondHeld = false;
    const second = await hold('node-twice', { onHeld: () => (secondHeld = true), onLost: () => {} });
    try {
      expect(secondHeld).toBe(false);
      await first();
      // The second session tries again with growing pauses (from a quarter of a second).
      const deadline = Date.now() + 5000;
      while (!secondHeld && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(secondHeld).toBe(true);
    } finally {
      await second();
    }
  });
});
