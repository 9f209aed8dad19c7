import type { DebateEvent } from '@verdict/contracts';
import type { Bus } from '@verdict/core';
import { natsBus, query, systemClock } from '@verdict/core';
import {
  createTestCore,
  debateReaching,
  eventually,
  insertPendingDebate,
  type PendingDebate,
  readDebate,
  type TestCore,
  testNatsUrl,
  uniqueSchema,
} from '@verdict/core/testing';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProbeMoment } from '../services.ts';
import { debaterTurnOf, turnRefKey } from '../testing/debater-requests.ts';
import { type FakeLlmServer, startFakeLlmServer } from '../testing/fake-llm-server.ts';
import { storeAsNode } from '../testing/index.ts';
import { judgeVerdictJson } from '../testing/judge-verdict.ts';
import { createEngineNode, type EngineNode } from './engine-node.ts';

describe('an engine node on PostgreSQL and NATS JetStream', () => {
  let test: TestCore;
  let bus: Bus & { deleteStreams: () => Promise<void> };
  let fake: FakeLlmServer;
  const nodes: EngineNode[] = [];
  let ownerId: string;
  /** The moments the current nodes announced (their probe), for tests that wait for a path. */
  const moments: ProbeMoment[] = [];
  const announced = (tag: ProbeMoment['_tag'], debateId?: string) =>
    eventually(
      async () =>
        moments.some((m) => m._tag === tag && (!debateId || ('debateId' in m && m.debateId === debateId))),
      Boolean,
    );

  /** One node at a time, so each test knows which configuration runs its debates. */
  const startNode = async (options: Partial<Parameters<typeof createEngineNode>[0]> = {}) => {
    for (const previous of nodes.splice(0)) await previous.stop();
    moments.length = 0;
    const node = createEngineNode({
      db: test.core.db,
      bus,
      clock: systemClock,
      slots: 4,
      providerKeys: {},
      policy: { timeoutMs: 2000, retries: 1, backoffMs: 10 },
      heartbeatMs: 200,
      probe: (moment) => moments.push(moment),
      ...options,
    });
    node.start();
    nodes.push(node);
    return node;
  };
  const create = (input: Partial<PendingDebate> = {}) =>
    insertPendingDebate(
      { db: test.core.db, bus },
      {
        ownerId,
        question: 'Should we adopt a four-day work week for the support team?',
        agents: 3,
        rounds: 1,
        ...input,
      },
    );
  const finished = (id: string) => debateReaching(test.core, id);
  const storedEvents = (id: string) =>
    test.core.db.execute<{ seq: number; type: string }>(
      'select seq, type from debate_events where debate_id = ? order by seq',
      [id],
    );

  beforeAll(async () => {
    test = await createTestCore();
    bus = await natsBus({ servers: [testNatsUrl()], prefix: `${uniqueSchema('eng')}.`, jobAckWaitMs: 2000 });
    fake = await startFakeLlmServer();
    ownerId = (await test.core.accounts.createUser({ email: 'owner@example.com', name: 'Owner' })).id;
  });
  afterAll(async () => {
    for (const node of nodes) await node.stop();
    await bus.deleteStreams();
    await bus.close();
    await fake.close();
    await test.cleanup();
  });

  it('runs a debate to a stored verdict, with every event stored and published in order without gaps', async () => {
    await startNode({ simulated: { firstTokenMs: 10 } });
    const debate = await create();
    const done = await finished(debate.id);
    expect(done?.status).toBe('completed');
    expect(done?.verdict?.narrative).toContain('[simulated]');
    expect(done).toMatchObject({ agentCount: 3, roundCount: 1 });
    expect(done?.cost?.llmCalls).toBe(5); // three debaters, the judge, the classifier
    const stored = await storedEvents(debate.id);
    expect(stored.map((e) => e.seq)).toEqual(stored.map((_, i) => i + 1));
    expect(stored.at(0)?.type).toBe('debate.started');
    expect(stored.at(-1)?.type).toBe('debate.completed');
    const published: DebateEvent[] = [];
    const stop = await bus.events.follow(debate.id, 1, 0, (e) => published.push(e));
    await eventually(
      async () => published.length,
      (n) => n === stored.length,
    );
    stop();
    expect(published.map((e) => [e.seq, e.type])).toEqual(stored.map((e) => [e.seq, e.type]));
    const turns = await test.core.db.execute('select agent from debate_turns where debate_id = ?', [
      debate.id,
    ]);
    expect(turns).toHaveLength(3);
  });

  it('pauses after the round in flight, reflects it in the debate row, and resumes on command', async () => {
    await startNode({ simulated: { firstTokenMs: 150 } });
    const debate = await create({ rounds: 2 });
    await debateReaching(test.core, debate.id, { statuses: ['running'] });
    const paused = await bus.commands.send(debate.id, { type: 'pause' });
    expect(paused).toMatchObject({ accepted: true });
    await debateReaching(test.core, debate.id, { statuses: ['paused'] });
    expect(await bus.commands.send(debate.id, { type: 'pause' })).toMatchObject({ accepted: false });
    const inspected = await bus.commands.send(debate.id, { type: 'inspect' });
    expect(inspected).toMatchObject({ accepted: true, state: 'running.paused' });
    expect(inspected !== 'no_engine' && inspected.history?.map((h) => h.state)).toEqual([
      'pending',
      'running.speaking',
      'running.paused',
    ]);
    await bus.commands.send(debate.id, { type: 'inject', payload: { content: 'Two agents just quit' } });
    expect(await bus.commands.send(debate.id, { type: 'resume' })).toMatchObject({ accepted: true });
    const done = await finished(debate.id);
    expect(done).toMatchObject({ status: 'completed', roundCount: 2 });
    const types = (await storedEvents(debate.id)).map((e) => e.type);
    expect(types).toEqual(
      expect.arrayContaining(['debate.paused', 'content.injected', 'debate.resumed', 'rebuttal']),
    );
    expect(await bus.commands.send(debate.id, { type: 'skip' })).toBe('no_engine');
  });

  it('restores a paused debate paused, and the row follows when it is resumed on the new node', async () => {
    await startNode({ simulated: { firstTokenMs: 150 } });
    const debate = await create({ question: 'Should a paused debate stay paused across nodes?', rounds: 2 });
    await debateReaching(test.core, debate.id, { statuses: ['running'] });
    expect(await bus.commands.send(debate.id, { type: 'pause' })).toMatchObject({ accepted: true });
    await debateReaching(test.core, debate.id, { statuses: ['paused'] });
    await startNode({ simulated: { firstTokenMs: 150 } }); // stops the first node; the second restores it
    await eventually(
      () => bus.commands.send(debate.id, { type: 'inspect' }),
      (reply) => reply !== 'no_engine' && reply.state === 'running.paused',
    );
    expect((await readDebate(test.core, debate.id))?.status).toBe('paused');
    expect(await bus.commands.send(debate.id, { type: 'resume' })).toMatchObject({ accepted: true });
    await debateReaching(test.core, debate.id, { statuses: ['running'] });
    expect((await finished(debate.id))?.status).toBe('completed');
  });

  it('runs on a real SDK against the fake provider, and fails with PROVIDER_ERROR when the judge fails for good', async () => {
    fake.setScript((request) =>
      request.model.includes('opus') ? { status: 500 } : { text: 'A fair point.' },
    );
    await startNode({
      providerKeys: { anthropic: 'sk-test-engine' },
      providerOptions: { baseUrls: fake.baseUrls },
    });
    const debate = await create();
    const done = await finished(debate.id);
    expect(done).toMatchObject({ status: 'failed', failureCode: 'PROVIDER_ERROR' });
    // Three debaters, the judge tried twice (one retry), and the classifier, asked while the judge worked.
    expect(fake.count('anthropic')).toBe(3 + 2 + 1);
    expect(done?.cost?.llmCalls).toBe(3 + 1);
    fake.setScript((request) =>
      request.model.includes('opus')
        ? {
            text: judgeVerdictJson({
              recommendation: 'DEFER',
              confidence: 0.64,
              keyEvidence: [
                {
                  claim: 'Budget is frozen',
                  source: 'Skeptic, round 1',
                  supports: 'against',
                  weight: 'high',
                },
              ],
            }),
            inputTokens: 2000,
            outputTokens: 500,
          }
        : request.model.includes('haiku')
          ? { text: 'Technology.', inputTokens: 50, outputTokens: 2 }
          : { text: 'Agreed.', inputTokens: 1000, outputTokens: 100 },
    );
    const second = await finished((await create()).id);
    // The classifier (haiku tier) read the question once; its answer is the debate's domain.
    expect(second?.domain).toBe('technology');
    expect(second?.verdict).toMatchObject({ recommendation: 'DEFER', confidence: 0.64 });
    expect(second?.verdict?.keyEvidence[0]).toMatchObject({ weight: 'high' });
    // At list price (the provider table): three sonnet debaters at $3/$15 per million tokens, the opus judge at
    // $15/$75, the haiku classifier at $1/$5.
    expect(second?.cost).toMatchObject({ inputTokens: 5050, outputTokens: 802, llmCalls: 5 });
    // In whole nanodollars (10⁻⁹ USD per token per $1 per million), so the dollars are exact: 0.0135 + 0.0675
    // + 0.00006 = 0.08106 (fractional dollars added in floating point would not be).
    const debaters = 3 * (1000 * 3_000 + 100 * 15_000);
    const judge = 2000 * 15_000 + 500 * 75_000;
    const classifier = 50 * 1_000 + 2 * 5_000;
    expect(second?.cost?.estimatedUsd).toBe((debaters + judge + classifier) / 1e9);
    expect(second?.cost?.estimatedUsd).toBe(0.08106);
  });

  it('fails a BYOK debate whose provider keys are gone, instead of using the service keys', async () => {
    await startNode();
    const debate = await create({ fundingSource: 'byok' });
    const done = await finished(debate.id);
    expect(done).toMatchObject({ status: 'failed', failureCode: 'PROVIDER_ERROR' });
    expect(done?.failureMessage).toContain('no longer available');
  });

  /**
   * Holds the snapshot table until the returned function is called: a node picking up a debate that was
   * started before (`startedBefore`, so its claim reads the stored state back) stalls there.
   */
  const holdSnapshotTable = () =>
    new Promise<() => void>((locked) => {
      void test.core.db.em().transactional(async (em) => {
        await sql`lock table debate_snapshots in access exclusive mode`.execute(query(em));
        await new Promise<void>((unlock) => locked(unlock));
      });
    });

  it('takes a command sent as soon as the debate reads running, even before its actor has started', async () => {
    await startNode();
    const unlock = await holdSnapshotTable();
    const debate = await create({
      question: 'Should a command right after the start wait for the actor?',
      rounds: 3,
      startedBefore: true,
    });
    await debateReaching(test.core, debate.id, { statuses: ['running'] });
    const reply = bus.commands.send(debate.id, { type: 'pause' });
    await announced('CommandAwaitingActor', debate.id);
    unlock();
    expect(await reply).toMatchObject({ accepted: true });
    await debateReaching(test.core, debate.id, { statuses: ['paused'] });
    expect(await bus.commands.send(debate.id, { type: 'resume' })).toMatchObject({ accepted: true });
    expect((await finished(debate.id))?.status).toBe('completed');
  });

  it('queues the debates of a node whose presence went at once, not when their job or lease brings them back', async () => {
    const hold = test.core.db.holdPresence;
    if (!hold) throw new Error('distributed mode holds presence');
    await startNode({ simulated: { firstTokenMs: 10 }, presenceWatchMs: 50 });
    // No job points at it and a node that is alive leases it for a minute: only the watch can move it.
    const { id } = await insertPendingDebate(
      { db: test.core.db, bus: { jobs: { enqueue: async () => {} } as never } },
      { ownerId, question: 'Should a dead node keep its debates for a minute?', agents: 3, rounds: 1 },
    );
    const endDoomed = await hold('node-doomed', { onHeld: () => {}, onLost: () => {} });
    const claim = await storeAsNode(test.core, 'node-doomed', 60_000).claim({ debateId: id, attempt: 1 });
    expect(claim.kind).toBe('claimed');
    const looks = () => moments.filter((m) => m._tag === 'PresenceLooked');
    const before = looks().length;
    // Two looks with the holder present: its debate stays its own.
    await eventually(
      async () => looks().length,
      (n) => n >= before + 2,
    );
    expect(looks().every((look) => look._tag === 'PresenceLooked' && look.queued === 0)).toBe(true);
    const [leased] = await test.core.db.execute<{ lease_owner: string }>(
      'select lease_owner from debates where id = ?',
      [id],
    );
    expect(leased?.lease_owner).toBe('node-doomed');

    await endDoomed();
    const done = await finished(id);
    expect(done?.status).toBe('completed');
    expect(looks().some((look) => look._tag === 'PresenceLooked' && look.queued === 1)).toBe(true);
    // Finished within the wait above, far inside the minute the lease had left, after one takeover.
    const [row] = await test.core.db.execute<{ lease_epoch: number }>(
      'select lease_epoch from debates where id = ?',
      [id],
    );
    expect(Number(row?.lease_epoch)).toBe(2);
  });

  it('hands back, unstarted, a debate it was still claiming when it stops', async () => {
    const node = await startNode();
    const unlock = await holdSnapshotTable();
    const debate = await create({
      question: 'Should a stopping node start what it just claimed?',
      startedBefore: true,
    });
    const leaseOf = () =>
      test.core.db.execute<{ status: string; lease_owner: string | null }>(
        'select status, lease_owner from debates where id = ?',
        [debate.id],
      );
    await eventually(leaseOf, (rows) => rows[0]?.lease_owner === node.nodeId);
    nodes.splice(nodes.indexOf(node), 1);
    const stopped = node.stop();
    await announced('NodeStopping');
    unlock();
    await stopped;
    expect(await leaseOf()).toEqual([{ status: 'running', lease_owner: null }]);
    expect(await storedEvents(debate.id)).toEqual([]);

    await startNode();
    expect((await finished(debate.id))?.status).toBe('completed');
    const events = await storedEvents(debate.id);
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    expect(events.filter((e) => e.type === 'debate.started')).toHaveLength(1);
  });

  it('hands a debate back when its node stops; the next node restores it and never re-asks a stored turn', async () => {
    const question = 'Should the restore test keep every turn it already paid for?';
    fake.setScript(async (request) => {
      if (request.model.includes('opus')) return { text: judgeVerdictJson() };
      await new Promise((resolve) => setTimeout(resolve, 200));
      return { text: 'A considered point.' };
    });
    const withFake = {
      providerKeys: { anthropic: 'sk-test-engine' },
      providerOptions: { baseUrls: fake.baseUrls },
    };
    await startNode(withFake);
    const before = fake.requests.length;
    const debate = await create({ question, rounds: 3 });
    await eventually(
      () => test.core.db.execute('select 1 from debate_turns where debate_id = ?', [debate.id]),
      (rows) => rows.length >= 4, // round 1 stored, round 2 under way
    );
    await startNode(withFake); // stops the first node mid-debate
    const storedAtStop = new Set(
      (
        await test.core.db.execute<{ agent: string; round: number }>(
          'select agent, round from debate_turns where debate_id = ?',
          [debate.id],
        )
      ).map(turnRefKey),
    );
    const afterStop = fake.requests.length;
    const done = await finished(debate.id);
    expect(done).toMatchObject({ status: 'completed', attempt: 1, roundCount: 3 });
    const askedAgain = fake.requests
      .slice(afterStop)
      .map(debaterTurnOf)
      .filter((ref) => ref?.question === question && storedAtStop.has(turnRefKey(ref)));
    expect(askedAgain).toEqual([]);
    const debaterRequests = fake.requests
      .slice(before)
      .filter((r) => debaterTurnOf(r)?.question === question);
    // Nine turns; at most the three of the round in flight at the stop are asked twice.
    expect(debaterRequests.length).toBeGreaterThanOrEqual(9);
    expect(debaterRequests.length).toBeLessThanOrEqual(9 + 3);
    const events = await test.core.db.execute<{
      seq: number;
      type: string;
      data: { agent?: string; round?: number };
    }>('select seq, type, data from debate_events where debate_id = ? order by seq', [debate.id]);
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    const keys = events.map((e) => `${e.type}:${e.data.round}:${e.data.agent}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(events.filter((e) => e.type === 'argument' || e.type === 'rebuttal')).toHaveLength(9);
    expect(events.filter((e) => e.type === 'debate.started')).toHaveLength(1);
    expect(events.at(-1)?.type).toBe('debate.completed');
    const inspectHistory = await test.core.db.execute<{ state: { history: { event: string }[] } }>(
      'select state from debate_snapshots where debate_id = ?',
      [debate.id],
    );
    expect(inspectHistory[0]?.state.history.map((h) => h.event)).toContain('xstate.restore');
  });
});
