import { setTimeout as sleep } from 'node:timers/promises';
import type { Core } from '@verdict/core';
import {
  createTestCore,
  eventually,
  type TestCore,
  testDatabaseUrl,
  testNatsUrl,
  uniqueSchema,
} from '@verdict/core/testing';
import {
  debaterTurnOf,
  type FakeLlmServer,
  isClassification,
  startFakeLlmServer,
} from '@verdict/engine/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createDebates,
  expectBusHasStoredEvents,
  expectCompleteAndConsistent,
  expectedTurnKeys,
  expectNoStoredTurnAskedAgain,
  type FaultMark,
  markFault,
  PANEL_OF_3,
  slowDebaters,
  unfinished,
} from './support/fault-checks.ts';
import { type RunningEngine, startEngine } from './support/processes.ts';

// Two engine processes share the queue; the test SIGKILLs one of them at random moments while debates
// are mid-round, starts a replacement each time, and then checks that every debate finished exactly once,
// with a gap-free event log, without asking the provider again for any turn that was already stored.
describe('engine nodes killed at random points', () => {
  const shape = { agents: 3, rounds: 3 };
  const DEBATES = 30;
  const KILLS = 5;
  /** Debates one node runs at once: what a kill can interrupt. */
  const SLOTS = 2;
  const prefix = uniqueSchema('kill');
  const env = {
    DATABASE_URL: testDatabaseUrl(),
    DATABASE_SCHEMA: uniqueSchema('kill'),
    NATS_URL: testNatsUrl(),
    NATS_PREFIX: `${prefix}.`,
    // What a dead node's debates wait before another node takes them: their job's ack wait, not their lease.
    // The lease outlasts the test, so only the dead node's presence, gone with its database session, lets
    // another node take its debates over.
    JOB_ACK_WAIT_MS: '1500',
    ENGINE_LEASE_MS: '120000',
    ENGINE_RECONCILE_INTERVAL_MS: '1000',
    ENGINE_STALE_AFTER_MS: '4000',
  };
  let fake: FakeLlmServer;
  let api: TestCore;
  let core: Core;
  let ownerId: string;
  const engines: RunningEngine[] = [];
  const everStarted: RunningEngine[] = [];

  const engineEnv = () => ({
    ...env,
    ENGINE_SLOTS: String(SLOTS),
    LOG_LEVEL: 'info',
    ANTHROPIC_API_KEY: 'sk-ant-fake-kill',
    ANTHROPIC_BASE_URL: fake.baseUrls.anthropic,
  });
  const launch = async () => {
    const engine = await startEngine(engineEnv());
    everStarted.push(engine);
    return engine;
  };
  /** Debates the node of `pid` holds that are past their first stored turn: the kill lands mid-debate. */
  const heldMidDebate = (pid: number) =>
    core.db.execute<{ id: string }>(
      `select d.id from debates d
        where d.status in ('running', 'paused') and d.lease_owner like ?
          and exists (select 1 from debate_turns t where t.debate_id = d.id)
          and exists (select 1 from debate_snapshots s where s.debate_id = d.id)`,
      [`%:${pid}:%`],
    );

  beforeAll(async () => {
    fake = await startFakeLlmServer(slowDebaters(250, 450));
    api = await createTestCore({ ...env, LOG_LEVEL: 'silent' });
    core = api.core;
    ownerId = (await core.accounts.createUser({ email: 'kill@example.com', name: 'Kill' })).id;
    engines.push(...(await Promise.all([launch(), launch()]))); // each is in everStarted once up
  });
  afterAll(async () => {
    await Promise.all(everStarted.map((engine) => engine.stop('SIGKILL')));
    await (core?.bus as { deleteStreams?: () => Promise<void> } | undefined)?.deleteStreams?.();
    await api?.cleanup();
    await fake?.close();
  });

  it('finishes every debate once, never re-asks a stored turn, and restores what each kill interrupted', async () => {
    const debates = await createDebates(core, ownerId, `kill-${prefix}`, DEBATES, shape);
    const ids = new Set(debates.map((d) => d.id));
    /**
     * More debates when the first ones run out before every kill has landed (a slow, loaded machine takes
     * longer to start a replacement node): the kills must interrupt debates in flight, whatever the pace.
     */
    const topUp = async () => {
      const more = await createDebates(
        core,
        ownerId,
        `kill-${prefix}-more${debates.length}`,
        SLOTS * 2,
        shape,
      );
      debates.push(...more);
      for (const debate of more) ids.add(debate.id);
    };

    const faults: FaultMark[] = [];
    /** Debates each kill left unfinished on the dead node with a snapshot: each must be restored elsewhere. */
    const orphaned = new Set<string>();
    /** Every debate a kill left unfinished, snapshot or not, with the moment of its kill. */
    const interrupted = new Map<string, number>();
    /** Kills that left the dead node's debates unfinished (a held debate may just have completed). */
    let midDebateKills = 0;
    const deadline = Date.now() + 35_000;
    while (midDebateKills < KILLS && Date.now() < deadline) {
      if ((await unfinished(core)) < SLOTS * 2) await topUp();
      await sleep(200 + Math.random() * 800);
      // A random node among those mid-debate right now, so the kill interrupts stored work.
      const candidates: number[] = [];
      for (const [i, engine] of engines.entries())
        if ((await heldMidDebate(engine.child.pid as number)).length > 0) candidates.push(i);
      const index = candidates[Math.floor(Math.random() * candidates.length)];
      if (index === undefined) continue;
      const victim = engines[index] as RunningEngine;
      const pid = victim.child.pid as number;
      await victim.stop('SIGKILL');
      const killedAt = Date.now();
      // The dead node's debates keep its name on their lease until another node claims them.
      const stillOpen = await core.db.execute<{ id: string; question: string; snapshotted: boolean }>(
        `select id, question, exists (select 1 from debate_snapshots s where s.debate_id = d.id) as snapshotted
           from debates d where status in ('running', 'paused') and lease_owner like ?`,
        [`%:${pid}:%`],
      );
      // One claimed a moment before the kill may have no snapshot yet: it starts afresh, and only has to
      // finish like every other debate.
      for (const row of stillOpen) {
        interrupted.set(row.id, killedAt);
        if (row.snapshotted) orphaned.add(row.id);
      }
      if (stillOpen.length > 0) midDebateKills += 1;
      const label = `kill ${faults.length + 1} (pid ${pid}, ${stillOpen.length} debates held)`;
      faults.push(await markFault(core, fake, label, new Set(stillOpen.map((row) => row.question))));
      engines[index] = await launch();
    }
    expect(midDebateKills).toBe(KILLS);

    await eventually(
      () => unfinished(core),
      (n) => n === 0,
      30_000,
    );

    const stored = await expectCompleteAndConsistent(core, debates, shape);
    const { requested, inFlightTotal } = expectNoStoredTurnAskedAgain(
      fake,
      expectedTurnKeys(debates, PANEL_OF_3, shape.rounds),
      faults,
    );
    // Each kill caught turns in flight (requests it had made and not stored): the bound above is not vacuous.
    expect(inFlightTotal).toBeGreaterThan(0);
    expect(requested).toBeGreaterThanOrEqual(debates.length * shape.agents * shape.rounds);

    // Every debate a kill interrupted was picked up by another node from its snapshot.
    const restored = await core.db.execute<{ debate_id: string }>(
      `select debate_id from debate_snapshots
        where state->'history' @> '[{"event": "xstate.restore"}]'::jsonb`,
    );
    const restoredIds = new Set(restored.map((row) => row.debate_id));
    expect([...orphaned].filter((id) => !restoredIds.has(id))).toEqual([]);
    expect([...restoredIds].filter((id) => !ids.has(id))).toEqual([]);
    // What the dead nodes stored but may not have published reached the bus: the stream of each debate a
    // kill interrupted is its stored log, in order, once.
    for (const id of interrupted.keys()) await expectBusHasStoredEvents(core, id, stored.get(id) ?? []);

    // Taken over long before their lease could run out: the next event of each came within seconds.
    const resumedAfter = await core.db.execute<{ debate_id: string; first_after: number }>(
      `select e.debate_id, min(extract(epoch from e.created_at) * 1000)::float8 as first_after
         from debate_events e join jsonb_to_recordset(?::jsonb) as k(id uuid, killed float8) on k.id = e.debate_id
        where extract(epoch from e.created_at) * 1000 > k.killed group by e.debate_id`,
      [JSON.stringify([...interrupted].map(([id, killed]) => ({ id, killed })))],
    );
    expect(resumedAfter).toHaveLength(interrupted.size);
    for (const row of resumedAfter)
      expect(Number(row.first_after) - (interrupted.get(row.debate_id) ?? 0)).toBeLessThan(20_000);

    // The judge is asked per debate (again only for a debate whose judge call a kill interrupted).
    const judged = fake.requests.filter((r) => debaterTurnOf(r) === null && !isClassification(r)).length;
    expect(judged).toBeGreaterThanOrEqual(debates.length);
    expect(judged).toBeLessThanOrEqual(debates.length + faults.length * SLOTS);
  }, 60_000);
});
