import { setTimeout as sleep } from 'node:timers/promises';
import type { Core } from '@verdict/core';
import {
  createTestCore,
  debateReaching,
  eventually,
  insertPendingDebate,
  startTcpProxy,
  type TcpProxy,
  type TestCore,
  testDatabaseUrl,
  testNatsUrl,
  uniqueSchema,
} from '@verdict/core/testing';
import { type FakeLlmServer, startFakeLlmServer } from '@verdict/engine/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from './support/api-client.ts';
import {
  createDebates,
  expectBusHasStoredEvents,
  expectCompleteAndConsistent,
  expectedTurnKeys,
  expectNoStoredTurnAskedAgain,
  markFault,
  PANEL_OF_3,
  slowDebaters,
  storedTurnKeys,
  unfinished,
} from './support/fault-checks.ts';
import { type PrivateNatsServer, startNatsServer } from './support/nats-server.ts';
import { type RunningEngine, type RunningProcess, startApi, startEngine } from './support/processes.ts';

const shape = { agents: 3, rounds: 3 };

/** Pino's error level: a debate handed back or a pass that failed for good. */
const errorLines = (output: string) => output.split('\n').filter((line) => line.includes('"level":50'));

// NATS (jobs, events, commands) goes away and comes back while debates run on two engine processes: the
// private nats-server is SIGKILLed mid-debate and restarted on the same port and JetStream store.
describe('NATS restarted while debates run', () => {
  const prefix = uniqueSchema('natsout');
  const schema = uniqueSchema('natsout');
  const env = () => ({
    DATABASE_URL: testDatabaseUrl(),
    DATABASE_SCHEMA: schema,
    NATS_URL: nats.url,
    NATS_PREFIX: `${prefix}.`,
    JOB_ACK_WAIT_MS: '3000',
    ENGINE_LEASE_MS: '3000',
    ENGINE_RECONCILE_INTERVAL_MS: '1000',
    ENGINE_STALE_AFTER_MS: '3000',
  });
  let nats: PrivateNatsServer;
  let fake: FakeLlmServer;
  let api: TestCore;
  let core: Core;
  let ownerId: string;
  const engines: RunningEngine[] = [];

  beforeAll(async () => {
    nats = await startNatsServer();
    fake = await startFakeLlmServer(slowDebaters(300, 500));
    api = await createTestCore({ ...env(), LOG_LEVEL: 'silent' });
    core = api.core;
    ownerId = (await core.accounts.createUser({ email: 'nats-out@example.com', name: 'Nats' })).id;
    const engineEnv = {
      ...env(),
      ENGINE_SLOTS: '4',
      LOG_LEVEL: 'info',
      ANTHROPIC_API_KEY: 'sk-ant-fake-nats',
      ANTHROPIC_BASE_URL: fake.baseUrls.anthropic,
    };
    await Promise.all([0, 1].map(() => startEngine(engineEnv).then((started) => void engines.push(started))));
  });
  afterAll(async () => {
    await Promise.all(engines.map((engine) => engine.stop('SIGKILL')));
    await nats?.start().catch(() => {}); // back up if a failure left it down, so the bus closes cleanly
    await api?.cleanup();
    await nats?.close();
    await fake?.close();
  });

  it('finishes every debate with its whole log, asks no turn twice, and the stream has every stored event', async () => {
    const debates = await createDebates(core, ownerId, `nats-${prefix}`, 8, shape);
    // Mid-debate: several turns stored, most still to come.
    await eventually(
      () => storedTurnKeys(core),
      (stored) => stored.size >= 12,
      20_000,
    );
    // One debate waits out the outage paused: its node must still answer commands once NATS is back. The
    // running one with the fewest stored turns: a pause accepted in a debate's last round would find no
    // round left to pause before, and the debate would complete instead.
    const [leastAdvanced] = await core.db.execute<{ id: string }>(
      `select d.id from debates d left join debate_turns t on t.debate_id = d.id
        where d.status = 'running' and d.id = any(?::uuid[])
        group by d.id order by count(t.debate_id), d.id limit 1`,
      [`{${debates.map((debate) => debate.id).join(',')}}`],
    );
    const paused = leastAdvanced?.id as string;
    expect(paused).toBeDefined();
    expect(await core.bus.commands.send(paused, { type: 'pause' })).toMatchObject({ accepted: true });
    await debateReaching(core, paused, { statuses: ['paused'] });
    await nats.stop('SIGKILL');
    const fault = await markFault(core, fake, 'NATS killed');
    expect(fault.stored.size).toBeLessThan(debates.length * shape.agents * shape.rounds);
    // A debate created while NATS is down: its row is stored, its job cannot be published (or only late).
    const lateQuestion = `Fault run nats-${prefix}: a debate created during the outage?`;
    const createdDuringOutage = insertPendingDebate(core, {
      ownerId,
      question: lateQuestion,
      agents: shape.agents,
      rounds: shape.rounds,
    }).then(
      () => 'enqueued',
      () => 'enqueue failed',
    );
    await sleep(2000);
    await nats.start();
    await createdDuringOutage; // published late, or not at all: then the reconciler queues it
    const [late] = await core.db.execute<{ id: string }>('select id from debates where question = ?', [
      lateQuestion,
    ]);
    expect(late).toBeDefined();
    const all = [...debates, { id: late?.id as string, question: lateQuestion }];
    // Commands reach the node again once it has reconnected and resubscribed.
    await eventually(
      () => core.bus.commands.send(paused, { type: 'inspect' }, 1000),
      (reply) => reply !== 'no_engine' && reply.state === 'running.paused',
      15_000,
    );
    expect(await core.bus.commands.send(paused, { type: 'resume' })).toMatchObject({ accepted: true });

    await eventually(
      () => unfinished(core),
      (n) => n === 0,
      40_000,
    );
    const stored = await expectCompleteAndConsistent(core, all, shape);
    // A bus outage with the database up costs no provider request: every node kept its leases.
    const { requested } = expectNoStoredTurnAskedAgain(
      fake,
      expectedTurnKeys(all, PANEL_OF_3, shape.rounds),
      [fault],
    );
    expect(requested).toBe(all.length * shape.agents * shape.rounds);

    // JetStream has every stored event of every debate, in order, once: what a live stream replays.
    for (const { id } of all) await expectBusHasStoredEvents(core, id, stored.get(id) ?? []);
    for (const engine of engines) expect(errorLines(engine.output())).toEqual([]);
  }, 60_000);
});

// PostgreSQL becomes unreachable for a few seconds (the engine's and an API process's connections go
// through a TCP proxy the test cuts): debates pause on their retried writes and carry on afterwards.
describe('PostgreSQL unreachable for a few seconds while debates run', () => {
  const schema = uniqueSchema('pgout');
  const prefix = uniqueSchema('pgout');
  const database = new URL(testDatabaseUrl());
  const env = {
    DATABASE_SCHEMA: schema,
    NATS_URL: testNatsUrl(),
    NATS_PREFIX: `${prefix}.`,
    // Shorter than the outage: leases run out while the database is away, and must be taken back by
    // their own holder, not lost.
    JOB_ACK_WAIT_MS: '3000',
    ENGINE_LEASE_MS: '3000',
    ENGINE_RECONCILE_INTERVAL_MS: '1000',
    ENGINE_STALE_AFTER_MS: '3000',
  };
  let proxy: TcpProxy;
  let fake: FakeLlmServer;
  let tc: TestCore;
  let core: Core;
  let ownerId: string;
  let engine: RunningEngine;
  let apiProcess: RunningProcess;

  const health = async () => {
    const res = await apiClient(apiProcess.baseUrl).GET('/health', { signal: AbortSignal.timeout(8000) });
    return res.response.status;
  };

  beforeAll(async () => {
    proxy = await startTcpProxy({ host: database.hostname, port: Number(database.port || 5432) });
    const viaProxy = new URL(testDatabaseUrl());
    viaProxy.port = String(proxy.port);
    fake = await startFakeLlmServer(slowDebaters(300, 500));
    tc = await createTestCore({ ...env, DATABASE_URL: testDatabaseUrl(), LOG_LEVEL: 'silent' });
    core = tc.core;
    ownerId = (await core.accounts.createUser({ email: 'pg-out@example.com', name: 'Pg' })).id;
    // Kept as each resolves, so afterAll stops whichever started even if the other did not.
    await Promise.all([
      startEngine({
        ...env,
        DATABASE_URL: viaProxy.toString(),
        ENGINE_SLOTS: '10',
        LOG_LEVEL: 'info',
        ANTHROPIC_API_KEY: 'sk-ant-fake-pg',
        ANTHROPIC_BASE_URL: fake.baseUrls.anthropic,
      }).then((started) => {
        engine = started;
      }),
      startApi({ ...env, DATABASE_URL: viaProxy.toString(), LOG_LEVEL: 'info' }).then((started) => {
        apiProcess = started;
      }),
    ]);
  });
  afterAll(async () => {
    await proxy?.restore(); // let the processes close their pools cleanly
    await engine?.stop('SIGKILL');
    await apiProcess?.stop();
    await (core?.bus as { deleteStreams?: () => Promise<void> } | undefined)?.deleteStreams?.();
    await tc?.cleanup();
    await proxy?.close();
    await fake?.close();
  });

  it('finishes every debate (none failed) without asking a turn twice; /health says 503 meanwhile', async () => {
    expect(await health()).toBe(200);
    const debates = await createDebates(core, ownerId, `pg-${prefix}`, 8, shape);
    await eventually(
      () => storedTurnKeys(core),
      (stored) => stored.size >= 12,
      20_000,
    );
    await proxy.cut();
    const cutAt = Date.now();
    const fault = await markFault(core, fake, 'PostgreSQL cut');
    expect(fault.stored.size).toBeLessThan(debates.length * shape.agents * shape.rounds);
    // Turns were being asked for at the cut: their answers arrive while the database is away and must be
    // stored once it is back, not asked for again.
    expect(fault.inFlight.size).toBeGreaterThan(0);
    expect(await health()).toBe(503);
    // Statements already on the wire at the cut may still commit; after that the engine stores nothing.
    await sleep(300);
    const settledAfterCut = await storedTurnKeys(core);
    await sleep(3500 - (Date.now() - cutAt));
    const storedDuringCut = await storedTurnKeys(core);
    expect([...storedDuringCut].filter((key) => !settledAfterCut.has(key))).toEqual([]);
    await proxy.restore();
    await eventually(health, (status) => status === 200, 10_000);

    await eventually(
      () => unfinished(core),
      (n) => n === 0,
      40_000,
    );
    await expectCompleteAndConsistent(core, debates, shape);
    const { requested } = expectNoStoredTurnAskedAgain(
      fake,
      expectedTurnKeys(debates, PANEL_OF_3, shape.rounds),
      [fault],
    );
    // Within the storage tolerance nothing is handed back, so nothing is asked twice.
    expect(requested).toBe(debates.length * shape.agents * shape.rounds);
    expect(errorLines(engine.output())).toEqual([]);
    expect(engine.output()).not.toContain('handed back');
  }, 60_000);
});
