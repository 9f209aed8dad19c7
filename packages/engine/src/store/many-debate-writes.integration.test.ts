import type { DebateEvent } from '@verdict/contracts';
import { createTestCore, insertPendingDebate, type TestCore } from '@verdict/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeAsNode } from '../testing/index.ts';
import type { Lease, LogBatch, StoredTurn } from './records.ts';

// A node's debates write their batches and turns in shared statements: each debate must still be written
// only under its own lease epoch, and told so on its own.
describe('writes of many debates in one statement', () => {
  let test: TestCore;
  const node = 'node-many';
  let ownerId = '';

  beforeAll(async () => {
    test = await createTestCore();
    ({ id: ownerId } = await test.core.accounts.createUser({
      email: `many-${Date.now()}@example.com`,
      name: 'M',
      plan: 'pro',
    }));
  });
  afterAll(async () => {
    await test?.cleanup();
  });

  /** Running debates leased to this node at epoch 1 (the database's epoch is `epochInDb`). */
  async function runningDebates(count: number, epochInDb = 1): Promise<Lease[]> {
    const leases: Lease[] = [];
    for (let i = 0; i < count; i++) {
      const { id } = await insertPendingDebate(
        { db: test.core.db, bus: { jobs: { enqueue: async () => {} } as never } },
        { ownerId, question: `Many ${i}?`, agents: 2, rounds: 1 },
      );
      await test.core.db.execute(
        `update debates set status = 'running', lease_owner = ?, lease_epoch = ?,
           lease_expires_at = now() + interval '1 minute' where id = ?`,
        [node, epochInDb, id],
      );
      leases.push({ debateId: id, attempt: 1, epoch: 1 });
    }
    return leases;
  }

  const event = (lease: Lease, seq: number, type: string, data: unknown): DebateEvent =>
    ({
      type,
      data,
      debateId: lease.debateId,
      attempt: 1,
      seq,
      at: new Date().toISOString(),
    }) as DebateEvent;

  const batchOf = (lease: Lease, status: LogBatch['status'], data: unknown = {}): LogBatch => ({
    events: [event(lease, 1, 'round.started', { round: 1, ...(data as object) })],
    state: { packed: JSON.stringify({ machine: { at: lease.debateId }, history: [] }), lastSeq: 1 },
    status,
  });

  const rows = <T>(sql: string, params: unknown[]) => test.core.db.execute<T>(sql, params);

  it("stores each debate's events, state and status under its own fence, and refuses the one whose lease moved on", async () => {
    const [a, b, c] = await runningDebates(3);
    const [stale] = await runningDebates(1, 2);
    const store = storeAsNode(test.core, node);
    const results = await Promise.allSettled([
      store.persist(a as Lease, batchOf(a as Lease, null)),
      store.persist(b as Lease, batchOf(b as Lease, 'paused')),
      store.persist(stale as Lease, batchOf(stale as Lease, 'paused')),
      store.persist(c as Lease, { events: [], state: null, status: null }),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect(String((results[2] as PromiseRejectedResult).reason)).toContain('LeaseLost');

    const ids = [a, b, c, stale].map((l) => (l as Lease).debateId);
    const events = await rows<{ debate_id: string; n: number }>(
      'select debate_id, count(*)::int as n from debate_events where debate_id = any(?::uuid[]) group by debate_id',
      [`{${ids.join(',')}}`],
    );
    expect(new Map(events.map((e) => [e.debate_id, e.n]))).toEqual(
      new Map([
        [a?.debateId, 1],
        [b?.debateId, 1],
      ]),
    );
    // Each event keyed by its debate's creation time: the partition key of migration 0040.
    const keys = await rows<{ keyed: boolean }>(
      `select e.debate_created_at = d.created_at as keyed from debate_events e join debates d on d.id = e.debate_id
        where e.debate_id = any(?::uuid[])`,
      [`{${ids.join(',')}}`],
    );
    expect(keys.map((k) => k.keyed)).toEqual([true, true]);
    const states = await rows<{ debate_id: string; state: { machine: { at: string } }; last_seq: number }>(
      'select debate_id, state, last_seq from debate_snapshots where debate_id = any(?::uuid[]) order by debate_id',
      [`{${ids.join(',')}}`],
    );
    expect(states.map((s) => [s.debate_id, s.state.machine.at, s.last_seq])).toEqual(
      [a, b].map((l) => [l?.debateId, l?.debateId, 1]).sort(),
    );
    const statuses = await rows<{ id: string; status: string }>(
      'select id, status from debates where id = any(?::uuid[])',
      [`{${ids.join(',')}}`],
    );
    expect(Object.fromEntries(statuses.map((s) => [s.id, s.status]))).toEqual({
      [a?.debateId as string]: 'running',
      [b?.debateId as string]: 'paused',
      [c?.debateId as string]: 'running',
      [stale?.debateId as string]: 'running',
    });
  });

  it('fails only the debate whose row the database refuses; the others in its statement are stored', async () => {
    const [a, bad, c] = await runningDebates(3);
    const store = storeAsNode(test.core, node);
    const results = await Promise.allSettled([
      store.persist(a as Lease, batchOf(a as Lease, null)),
      // PostgreSQL's jsonb refuses the NUL character.
      store.persist(bad as Lease, batchOf(bad as Lease, null, { note: 'nul \u0000 here' })),
      store.persist(c as Lease, batchOf(c as Lease, null)),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(String((results[1] as PromiseRejectedResult).reason)).toContain('PermanentFailure');
    const stored = await rows<{ debate_id: string }>(
      'select distinct debate_id from debate_events where debate_id = any(?::uuid[]) order by debate_id',
      [`{${[a, bad, c].map((l) => l?.debateId).join(',')}}`],
    );
    expect(stored.map((r) => r.debate_id)).toEqual([a?.debateId, c?.debateId].sort());
  });

  it('claims the jobs a node takes together in one statement, each answered as its own claim would be', async () => {
    const free = await runningDebates(2);
    const [held] = await runningDebates(1);
    const [finished] = await runningDebates(1);
    await rows(`update debates set lease_owner = null, lease_expires_at = null where id = any(?::uuid[])`, [
      `{${free.map((l) => l.debateId).join(',')}}`,
    ]);
    await rows(`update debates set status = 'completed', lease_owner = null where id = ?`, [
      finished?.debateId,
    ]);
    // Another node, alive (its presence held), holds one for another minute.
    const endPresence = await test.core.db.holdPresence?.('node-other', {
      onHeld: () => {},
      onLost: () => {},
    });
    await rows(`update debates set lease_owner = 'node-other' where id = ?`, [held?.debateId]);
    try {
      const store = storeAsNode(test.core, node);
      const [a, b] = free.map((l) => l.debateId) as [string, string];
      const claims = await Promise.all([
        store.claim({ debateId: a, attempt: 1 }),
        store.claim({ debateId: b, attempt: 1 }),
        store.claim({ debateId: held?.debateId as string, attempt: 1 }),
        store.claim({ debateId: finished?.debateId as string, attempt: 1 }),
        // A job of an attempt that is not the debate's, and a second copy of a job already claimed above.
        store.claim({ debateId: b, attempt: 2 }),
        store.claim({ debateId: a, attempt: 1 }),
      ]);
      expect(claims.map((c) => c.kind)).toEqual([
        'claimed',
        'claimed',
        'held',
        'finished',
        'gone',
        'claimed',
      ]);
      const leases = claims.map((c) => (c.kind === 'claimed' ? c.lease : null));
      expect(claims.map((c) => (c.kind === 'claimed' ? c.debate.id : null))).toEqual([
        a,
        b,
        null,
        null,
        null,
        a,
      ]);
      // The copy went in a statement of its own (never two rows of one debate in one), out beside the first:
      // whichever locked the row second took the lease again, one epoch on.
      const [older, newer] = [leases[0], leases[5]].sort((x, y) => (x?.epoch ?? 0) - (y?.epoch ?? 0));
      expect((newer?.epoch ?? 0) - (older?.epoch ?? 0)).toBe(1);

      // Marked together: each under its own epoch, and the one whose epoch moved on refused alone.
      const marked = await Promise.allSettled(
        [leases[1], newer, older].map((lease) => store.markRunning(lease as Lease)),
      );
      expect(marked.map((m) => m.status)).toEqual(['fulfilled', 'fulfilled', 'rejected']);
      expect(String((marked[2] as PromiseRejectedResult).reason)).toContain('LeaseLost');
      const [other] = await rows<{ started: boolean }>(
        'select started_at is not null as started from debates where id = ?',
        [held?.debateId],
      );
      expect(other?.started).toBe(false);
    } finally {
      await endPresence?.();
    }
  });

  it('saves the turns of a round together, once each, and none for a debate whose lease moved on', async () => {
    const [a, b] = await runningDebates(2);
    const [stale] = await runningDebates(1, 2);
    const store = storeAsNode(test.core, node);
    const turn = (agent: string): StoredTurn => ({
      round: 1,
      agent,
      content: `${agent} argues`,
      model: 'simulated',
      targetAgent: null,
      position: { recommendation: 'REJECT', stance: 'against' },
      citations: null,
      inputTokens: 10,
      outputTokens: 20,
      costNanoUsd: 0,
    });
    const results = await Promise.allSettled([
      store.saveTurn(a as Lease, turn('agent-1')),
      store.saveTurn(a as Lease, turn('agent-2')),
      store.saveTurn(a as Lease, turn('agent-3')),
      store.saveTurn(b as Lease, turn('agent-1')),
      store.saveTurn(stale as Lease, turn('agent-1')),
    ]);
    expect(results.map((r) => r.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'fulfilled',
      'fulfilled',
      'rejected',
    ]);
    // Saved again (a restored debate re-running its round): a no-op that still succeeds.
    await store.saveTurn(a as Lease, { ...turn('agent-1'), content: 'a second try' });
    const turns = await rows<{ debate_id: string; agent: string; content: string }>(
      'select debate_id, agent, content from debate_turns where debate_id = any(?::uuid[]) order by debate_id, agent',
      [`{${[a, b, stale].map((l) => l?.debateId).join(',')}}`],
    );
    expect(turns.filter((t) => t.debate_id === a?.debateId).map((t) => [t.agent, t.content])).toEqual([
      ['agent-1', 'agent-1 argues'],
      ['agent-2', 'agent-2 argues'],
      ['agent-3', 'agent-3 argues'],
    ]);
    expect(turns.filter((t) => t.debate_id === b?.debateId)).toHaveLength(1);
    expect(turns.filter((t) => t.debate_id === stale?.debateId)).toHaveLength(0);
  });
});
