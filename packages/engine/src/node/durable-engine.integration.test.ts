import { randomUUID } from 'node:crypto';
import { jetstreamManager } from '@nats-io/jetstream';
import type { DebateEvent } from '@verdict/contracts';
import type { Core, NatsBus } from '@verdict/core';
import { createDebateCreation } from '@verdict/core';
import {
  createTestCore,
  debateReaching,
  eventually,
  readDebate,
  type TestCore,
  testNatsUrl,
  uniqueSchema,
} from '@verdict/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EngineNodeOptions } from '../layers.ts';
import { type FakeLlmServer, startFakeLlmServer } from '../testing/fake-llm-server.ts';
import { judgeVerdictJson, reconcileOnce, storeAsNode } from '../testing/index.ts';
import { createEngineNode, type EngineNode } from './engine-node.ts';

/** The judge fails for good on questions containing this, so those debates end PROVIDER_ERROR. */
const JUDGE_FAILS = '[judge-fails]';

// Two "processes" (two Cores on one schema and one NATS prefix), each with its own engine node, racing
// for the same jobs: duplicates, redeliveries, lost leases and lost jobs must not change any outcome.
describe('engine nodes racing for the same debates', () => {
  const prefix = `${uniqueSchema('race')}.`;
  let a: TestCore;
  let b: TestCore;
  let fake: FakeLlmServer;
  const nodes: EngineNode[] = [];
  const logs: string[] = [];
  let ownerId: string;

  const node = (core: Core, options: Partial<EngineNodeOptions> = {}) => {
    const started = createEngineNode({
      db: core.db,
      bus: core.bus,
      clock: core.clock,
      slots: 6,
      providerKeys: { anthropic: 'sk-test-race' },
      providerOptions: { baseUrls: fake.baseUrls },
      policy: { timeoutMs: 3000, retries: 0, backoffMs: 10 },
      leaseMs: 1500,
      heartbeatMs: 300,
      storageToleranceMs: 2000,
      // Reconciliation is exercised explicitly below; keep the background pass out of the way.
      reconcile: { intervalMs: 60_000, staleAfterMs: 60_000 },
      log: (_level, message) => logs.push(message),
      ...options,
    });
    started.start();
    nodes.push(started);
    return started;
  };

  const create = async (question: string) => {
    const result = await a.core.debates.create({
      ownerId,
      route: 'api',
      question,
      context: null,
      mode: 'fast',
      agents: 3,
      rounds: 2,
      preset: null,
      routing: null,
      compare: false,
      skipCache: true,
      providerKeys: null,
      idempotencyKey: null,
      fingerprint: question,
    });
    return result.debateId;
  };
  const finished = (id: string) => debateReaching(a.core, id, { ms: 30_000 });
  const rows = <T>(sql: string, params: unknown[]) => a.core.db.execute<T>(sql, params);
  const eventsOf = (id: string) =>
    rows<{ seq: number; type: string; data: { agent?: string; round?: number } }>(
      'select seq, type, data from debate_events where debate_id = ? order by seq',
      [id],
    );
  const balance = async () =>
    Number(
      (await rows<{ b: number }>('select credit_balance as b from users where id = ?', [ownerId]))[0]?.b,
    );
  const jobsWaiting = async () => {
    const jsm = await jetstreamManager((a.core.bus as NatsBus).connection);
    const info = await jsm.streams.info(`${prefix.replace(/[^A-Za-z0-9_-]/g, '_').toUpperCase()}DEBATE_JOBS`);
    return info.state.messages;
  };
  /** One stream per debate: seq 1..N, one start and one end, no turn or thinking event twice. */
  const expectCleanStream = async (id: string, end: 'debate.completed' | 'debate.failed') => {
    const events = await eventsOf(id);
    expect(events.map((e) => Number(e.seq))).toEqual(events.map((_, i) => i + 1));
    const keys = events.map((e) => `${e.type}:${e.data.round}:${e.data.agent}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(events.filter((e) => e.type === 'debate.started')).toHaveLength(1);
    expect(events.filter((e) => e.type === end)).toHaveLength(1);
    expect(events.at(-1)?.type).toBe(end);
    return events;
  };

  beforeAll(async () => {
    const env = { NATS_URL: testNatsUrl(), NATS_PREFIX: prefix, JOB_ACK_WAIT_MS: '1500' };
    a = await createTestCore(env);
    b = await createTestCore({ ...env, DATABASE_SCHEMA: a.schema });
    fake = await startFakeLlmServer(async (request) => {
      const body = JSON.stringify(request.body);
      if (request.model.includes('opus')) {
        return body.includes(JUDGE_FAILS)
          ? { status: 400, message: 'judge refuses' }
          : { text: judgeVerdictJson() };
      }
      await new Promise((resolve) => setTimeout(resolve, 60));
      return { text: 'A point worth weighing.' };
    });
    const owner = await a.core.accounts.createUser({ email: 'racer@example.com', name: 'Racer' });
    ownerId = owner.id;
    await a.core.accounts.setPlan(ownerId, 'pro');
    await a.core.billing.grantCredits(ownerId, 100);
  });
  afterAll(async () => {
    for (const n of nodes) await n.stop();
    await (a.core.bus as NatsBus).deleteStreams();
    await fake.close();
    await b.core.close();
    await a.cleanup();
  });

  it('runs each debate once under duplicate jobs and redeliveries after completion: one verdict, one outbox row, one charge', async () => {
    node(a.core);
    node(b.core);
    const before = await balance();
    const ids = [
      await create('Race one: should we pilot it?'),
      await create(`Race two: should we pilot it? ${JUDGE_FAILS}`),
      await create('Race three: should we pilot it?'),
    ];
    const charged = before - (await balance());
    expect(charged).toBeGreaterThan(0);
    // Duplicate publishes of every job, racing the originals across both nodes.
    for (const id of ids) {
      for (const copy of ['dup-1', 'dup-2', 'dup-3'])
        await a.core.bus.jobs.enqueue({ debateId: id, attempt: 1 }, copy);
    }
    const done = await Promise.all(ids.map(finished));
    expect(done.map((d) => d?.status)).toEqual(['completed', 'failed', 'completed']);
    expect(done[1]?.failureCode).toBe('PROVIDER_ERROR');
    await expectCleanStream(ids[0]!, 'debate.completed');
    await expectCleanStream(ids[1]!, 'debate.failed');
    await expectCleanStream(ids[2]!, 'debate.completed');
    for (const id of [ids[0]!, ids[2]!]) {
      expect((await eventsOf(id)).filter((e) => e.type === 'verdict')).toHaveLength(1);
    }

    // Jobs redelivered after completion change nothing.
    for (const id of ids) await b.core.bus.jobs.enqueue({ debateId: id, attempt: 1 }, 'late');
    await eventually(jobsWaiting, (n) => n === 0);
    const outbox = await rows<{ debate_id: string; event: string }>(
      'select debate_id, event from webhook_outbox where debate_id in (?, ?, ?) order by event',
      ids,
    );
    expect(outbox.map((o) => [o.debate_id, o.event]).sort()).toEqual(
      [
        [ids[0], 'debate.created'],
        [ids[0], 'debate.completed'],
        [ids[1], 'debate.created'],
        [ids[1], 'debate.failed'],
        [ids[2], 'debate.created'],
        [ids[2], 'debate.completed'],
      ].sort(),
    );
    // Charged once per debate; the failed one refunded once.
    const perDebate = charged / ids.length;
    expect(await balance()).toBe(before - 2 * perDebate);
    const refunds = await rows<{ n: number }>(
      `select count(*)::int as n from credit_ledger where debate_id = ? and reason = 'refund'`,
      [ids[1]],
    );
    expect(refunds[0]?.n).toBe(1);
    const turns = await rows<{ n: number }>(
      'select count(*)::int as n from debate_turns where debate_id in (?, ?, ?)',
      ids,
    );
    expect(turns[0]?.n).toBe(3 * 2 * 3);
  });

  it('runs a debate once when one node is handed several copies of its job at the same moment', async () => {
    for (const running of nodes.splice(0)) await running.stop();
    const question = 'Copies on one node: does it run twice?';
    const id = await create(question);
    for (const copy of ['dup-1', 'dup-2', 'dup-3'])
      await a.core.bus.jobs.enqueue({ debateId: id, attempt: 1 }, copy);
    // One node, free slots for every copy: all of them reach it together.
    node(a.core);
    expect((await finished(id))?.status).toBe('completed');
    await expectCleanStream(id, 'debate.completed');
    const asked = fake.requests.filter((r) => JSON.stringify(r.body).includes(question));
    expect(asked).toHaveLength(3 * 2 + 1 + 1); // six turns, the judge and the classifier, each once
    const [row] = await rows<{ lease_epoch: number }>('select lease_epoch from debates where id = ?', [id]);
    expect(Number(row?.lease_epoch)).toBe(1);
    await eventually(jobsWaiting, (n) => n === 0);
  });

  it('fails a debate that breaks every time it runs, refunded once, instead of cycling through the queue', async () => {
    for (const running of nodes.splice(0)) await running.stop();
    const before = await balance();
    const id = await create('Corrupt snapshot: does it cycle forever?');
    // A snapshot that names a turn nobody stored, as a node that started the debate left it: no node can
    // ever restore it.
    await rows(
      `insert into debate_snapshots (debate_id, attempt, state, last_seq)
       values (?, 1, '{"machine": {"$turn": "1:Ghost"}, "history": []}'::jsonb, 0)`,
      [id],
    );
    await rows('update debates set started_at = now() where id = ?', [id]);
    node(a.core, { maxInterruptions: 3 });
    const done = await finished(id);
    expect(done).toMatchObject({ status: 'failed', failureCode: 'INTERNAL_ERROR', interruptions: 3 });
    expect(await balance()).toBe(before);
    const events = await eventsOf(id);
    expect(events.map((e) => e.type)).toEqual(['debate.failed']);
    const outbox = await rows<{ event: string }>(
      'select event from webhook_outbox where debate_id = ? order by created_at',
      [id],
    );
    expect(outbox.map((o) => o.event)).toEqual(['debate.created', 'debate.failed']);
    expect(logs.filter((line) => line.startsWith(`debate ${id}: interrupted`))).toHaveLength(2);
    await eventually(jobsWaiting, (n) => n === 0);
  });

  it('a node that lost its lease writes nothing more; the debate finishes on the next holder', async () => {
    const id = await create('Lease test: should the stalled node keep writing?');
    await eventually(
      () => rows('select 1 from debate_turns where debate_id = ?', [id]),
      (r) => r.length >= 2,
    );
    // Another node claimed it (and then vanished): the epoch moves on and the lease has run out. That node
    // claimed it through this very job, redelivered to it, as a node that stalls past its ack wait sees
    // happen: the node that lost the lease must leave the job alone (an ack of any delivery removes it),
    // and the job, unacked, comes back once its ack wait is over. No other job and no reconciler pass here
    // (their period is a minute): without the job the debate would stay unfinished.
    await rows(
      `update debates set lease_epoch = lease_epoch + 1, lease_owner = 'vanished-node',
         lease_expires_at = now() - interval '1 second' where id = ?`,
      [id],
    );
    await eventually(async () => logs.some((line) => line.includes(`debate ${id}: lease lost`)), Boolean);
    const done = await finished(id);
    expect(done?.status).toBe('completed');
    await expectCleanStream(id, 'debate.completed');
    const turns = await rows<{ n: number }>(
      'select count(*)::int as n from debate_turns where debate_id = ?',
      [id],
    );
    expect(turns[0]?.n).toBe(6);
  });

  it('publishes the events a holder stored with its final state and died before publishing, when its job comes back', async () => {
    for (const running of nodes.splice(0)) await running.stop();
    const id = await create('Silent end: does any stream hear how it ended?');
    const job = { debateId: id, attempt: 1 };
    const dead = storeAsNode(a.core, 'node-died-after-commit');
    const claim = await dead.claim(job);
    if (claim.kind !== 'claimed') throw new Error(`not claimed: ${claim.kind}`);
    const { lease } = claim;
    await dead.markRunning(lease);
    const at = new Date().toISOString();
    const started: DebateEvent = {
      ...job,
      seq: 1,
      at,
      type: 'debate.started',
      data: { debateId: id, mode: 'fast', panel: [], rounds: 2 },
    };
    const ended: DebateEvent = {
      ...job,
      seq: 2,
      at,
      type: 'debate.failed',
      data: { debateId: id, error: 'judge refuses', code: 'PROVIDER_ERROR' },
    };
    await dead.persist(lease, { events: [started], state: null, status: null });
    const cost = { inputTokens: 0, outputTokens: 0, estimatedUsd: 0, credits: 0, llmCalls: 0 };
    const last = { events: [ended], state: null, status: null };
    expect(
      await dead.finish(lease, { status: 'failed', code: 'PROVIDER_ERROR', message: 'no', cost }, last),
    ).toBe(true);
    // The holder died there: nothing it stored reached the bus, and a live stream waits for the end.
    const heard: DebateEvent[] = [];
    const stop = await a.core.bus.events.follow(id, 1, 0, (event) => heard.push(event));
    try {
      expect(heard).toEqual([]);
      node(a.core);
      await eventually(
        async () => heard.map((event) => event.type),
        (types) => types.includes('debate.failed'),
      );
      expect(heard.map((event) => [event.seq, event.type])).toEqual([
        [1, 'debate.started'],
        [2, 'debate.failed'],
      ]);
      await eventually(jobsWaiting, (n) => n === 0);
    } finally {
      stop();
    }
  });

  it('a released lease is free at once: a renewal in flight cannot extend it, and only its holder renews', async () => {
    // A row no job points at, so only the leases below ever touch it.
    const [row] = await rows<{ id: string }>(
      `insert into debates (owner_id, question, mode, status, funding_source, requested_agents, requested_rounds)
       values (?, 'Lease bookkeeping: who renews?', 'fast', 'pending', 'user_credits', 3, 1) returning id`,
      [ownerId],
    );
    const id = row!.id;
    const first = storeAsNode(a.core, 'node-first');
    const second = storeAsNode(b.core, 'node-second');
    // The first node is alive: its presence is held, as a running node's is.
    const endPresence = await a.core.db.holdPresence?.('node-first', { onHeld: () => {}, onLost: () => {} });
    const job = { debateId: id, attempt: 1 };
    const claim = await first.claim(job);
    // The first claim of the attempt: nothing of it stored yet.
    expect(claim).toMatchObject({
      kind: 'claimed',
      fresh: true,
      takenFrom: null,
      debate: { id, owner_id: ownerId },
    });
    const epoch = claim.kind === 'claimed' ? claim.lease.epoch : -1;
    const lease = { ...job, epoch };
    expect(await second.claim(job)).toMatchObject({ kind: 'held' });
    await endPresence?.();
    await expect(second.markRunning(lease)).rejects.toMatchObject({ _tag: 'LeaseLost' });
    await first.markRunning(lease);
    const [marked] = await rows<{ status: string; started: boolean }>(
      'select status, started_at is not null as started from debates where id = ?',
      [id],
    );
    expect(marked).toEqual({ status: 'running', started: true });
    // Another node naming the same epoch cannot keep the lease alive for the holder.
    expect([...(await second.renew([lease]))]).toEqual([]);
    expect([...(await first.renew([lease]))]).toEqual([id]);

    await first.release(lease);
    // The holder's heartbeat that was already on its way lands after the release: the lease stays free.
    expect([...(await first.renew([lease]))]).toEqual([]);
    // Free, and run out as of its release (not never taken: see the reconciler test below).
    const [stored] = await rows<{ lease_owner: string | null; run_out: boolean | null }>(
      'select lease_owner, lease_expires_at <= now() as run_out from debates where id = ?',
      [id],
    );
    expect(stored).toEqual({ lease_owner: null, run_out: true });
    // Released, not taken over: no hand-over to count; started before, so what was stored is restored.
    expect(await second.claim(job)).toMatchObject({
      kind: 'claimed',
      lease: { ...job, epoch: epoch + 1 },
      takenFrom: null,
      fresh: false,
    });
    await rows(`update debates set status = 'failed' where id = ?`, [id]);
  });

  it('re-queues debates nobody runs exactly once, however many nodes reconcile at the same moment', async () => {
    const insertStale = (status: string, lease: string) =>
      rows<{ id: string }>(
        `insert into debates (owner_id, question, mode, status, funding_source, requested_agents, requested_rounds,
           created_at, lease_owner, lease_expires_at)
         values (?, ?, 'fast', ?, 'user_credits', 3, 1, now() - interval '1 hour', ${lease}) returning id`,
        [ownerId, `Reconcile ${status}: lost job?`, status],
      );
    const [lost] = await insertStale('pending', 'null, null');
    const [orphan] = await insertStale('running', `'dead-node', now() - interval '1 hour'`);
    const [live] = await insertStale('running', `'live-node', now() + interval '1 hour'`);
    const enqueued: string[] = [];
    const countingPass = (core: Core) =>
      reconcileOnce(core, 1000, {
        ...core.bus.jobs,
        enqueue: async (job, copy) => {
          enqueued.push(job.debateId);
          await core.bus.jobs.enqueue(job, copy);
        },
      });
    const passes = await Promise.all([countingPass(a.core), countingPass(b.core), countingPass(a.core)]);
    expect(passes.reduce((x, y) => x + y, 0)).toBe(2);
    expect(enqueued.sort()).toEqual([lost!.id, orphan!.id].sort());
    // A second pass within the stale period leaves them alone.
    expect(await countingPass(b.core)).toBe(0);
    expect((await finished(lost!.id))?.status).toBe('completed');
    expect((await finished(orphan!.id))?.status).toBe('completed');
    const [stillHeld] = await rows<{ status: string }>('select status from debates where id = ?', [live!.id]);
    expect(stillHeld?.status).toBe('running');
  });

  it('answers a create whose job the bus refused, and the reconciler queues that debate later', async () => {
    const refused: unknown[] = [];
    const down = {
      ...a.core.bus,
      jobs: { ...a.core.bus.jobs, enqueue: () => Promise.reject(new Error('bus down')) },
    };
    const createWhileDown = createDebateCreation({
      db: a.core.db,
      bus: down,
      clock: a.core.clock,
      config: a.core.config,
      onError: (error) => refused.push(error),
    });
    const { debateId } = await createWhileDown.create({
      ownerId,
      route: 'api',
      question: 'Created while the bus was down: does it still run?',
      context: null,
      mode: 'fast',
      agents: 3,
      rounds: 1,
      preset: null,
      routing: null,
      compare: false,
      skipCache: true,
      providerKeys: null,
      idempotencyKey: null,
      fingerprint: 'bus-down',
    });
    expect(refused).toHaveLength(1);
    expect((await readDebate(a.core, debateId))?.status).toBe('pending');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await reconcileOnce(a.core, 20)).toBeGreaterThanOrEqual(1);
    expect((await finished(debateId))?.status).toBe('completed');
  });
  it('lets unclaimed debates wait their turn while the queue has a backlog, and retries a re-queue the bus refused', async () => {
    for (const running of nodes.splice(0)) await running.stop();
    const insertPending = (question: string, age: string) =>
      rows<{ id: string }>(
        `insert into debates (owner_id, question, mode, status, funding_source, requested_agents, requested_rounds,
           created_at) values (?, ?, 'fast', 'pending', 'user_credits', 3, 1, now() - interval '${age}') returning id`,
        [ownerId, question],
      ).then((r) => r[0]!.id);
    const reconcile = () => reconcileOnce(a.core, 1000);

    // Jobs nobody has taken yet: a debate unclaimed for 3 s is more likely behind them than lost.
    for (let i = 0; i < 2; i++) await a.core.bus.jobs.enqueue({ debateId: randomUUID(), attempt: 1 });
    const waitingTurn = await insertPending('Backlog: is it lost or just waiting?', '3 seconds');
    expect(await a.core.bus.jobs.waiting()).toBe(2);
    expect(await reconcile()).toBe(0);
    node(a.core);
    await eventually(
      () => a.core.bus.jobs.waiting(),
      (n) => n === 0,
    );
    expect(await reconcile()).toBe(1);
    expect((await finished(waitingTurn))?.status).toBe('completed');

    // The bus refuses the second re-queue of a pass: that debate is not stamped, so the next pass takes it.
    const [first, second] = [
      await insertPending('Refused re-queue one', '1 hour'),
      await insertPending('Refused re-queue two', '1 hour'),
    ];
    const queued: string[] = [];
    const flakyPass = reconcileOnce(a.core, 1000, {
      ...a.core.bus.jobs,
      enqueue: async (job, copy) => {
        if (queued.length === 1) throw new Error('bus refused');
        await a.core.bus.jobs.enqueue(job, copy);
        queued.push(job.debateId);
      },
    });
    await expect(flakyPass).rejects.toMatchObject({ _tag: 'BusUnavailable' });
    const stamps = await rows<{ id: string; requeued: boolean }>(
      'select id, requeued_at is not null as requeued from debates where id in (?, ?)',
      [first, second],
    );
    expect(queued).toHaveLength(1);
    expect(stamps.filter((r) => r.requeued).map((r) => r.id)).toEqual(queued);
    expect(await reconcile()).toBe(1);
    expect((await finished(first))?.status).toBe('completed');
    expect((await finished(second))?.status).toBe('completed');
  });

  it('re-queues a released debate whose job was lost one stale period after its release, backlog or not', async () => {
    for (const running of nodes.splice(0)) await running.stop();
    const [row] = await rows<{ id: string }>(
      `insert into debates (owner_id, question, mode, status, funding_source, requested_agents, requested_rounds)
       values (?, 'Released, its job lost: who brings it back?', 'fast', 'pending', 'user_credits', 3, 1)
       returning id`,
      [ownerId],
    );
    const id = row!.id;
    const job = { debateId: id, attempt: 1 };
    // A holder ran it and gave it back (interrupted), and the job meant to bring it back is gone: acked by a
    // node it was taken from, or lost with a crashed NATS. Other jobs wait in the queue meanwhile.
    const holder = storeAsNode(a.core, 'node-interrupted');
    const claim = await holder.claim(job);
    if (claim.kind !== 'claimed') throw new Error(`not claimed: ${claim.kind}`);
    await holder.markRunning(claim.lease);
    await holder.release(claim.lease);
    for (let i = 0; i < 2; i++) await a.core.bus.jobs.enqueue({ debateId: randomUUID(), attempt: 1 });
    expect(await a.core.bus.jobs.waiting()).toBeGreaterThanOrEqual(2);
    await new Promise((resolve) => setTimeout(resolve, 1200));
    // One stale period (1 s) after the release: not the ten a never-claimed debate gets behind a backlog.
    const queued: string[] = [];
    await reconcileOnce(a.core, 1000, {
      ...a.core.bus.jobs,
      enqueue: async (requeued, copy) => {
        queued.push(requeued.debateId);
        await a.core.bus.jobs.enqueue(requeued, copy);
      },
    });
    expect(queued).toContain(id);
    node(a.core);
    expect((await finished(id))?.status).toBe('completed');
  });
});
