import type { DebateCommandResult, DebateObject, DebatePage, DebateStateChart } from '@verdict/contracts';
import { debateReaching, eventually, insertPendingDebate } from '@verdict/core/testing';
import type { EngineNode } from '@verdict/engine';
import { startTestEngine } from '@verdict/engine/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectError,
  type Harness,
  registerUser,
  startServer,
  type TestUser,
} from '../../testing/http-harness.ts';

const MISSING = '00000000-0000-4000-8000-000000000000';

describe('debate routes on /api', () => {
  let h: Harness;
  let engine: EngineNode;
  let alice: TestUser;
  let bob: TestUser;

  const create = (owner: TestUser, overrides: { rounds?: number; isPublic?: boolean } = {}) =>
    insertPendingDebate(h.core, {
      ownerId: owner.session.user.id,
      question: 'Should we rewrite the billing service in Rust?',
      agents: 3,
      rounds: overrides.rounds ?? 1,
    });
  const finished = (id: string) => debateReaching(h.core, id);

  beforeAll(async () => {
    h = await startServer();
    engine = startTestEngine(h.core, { firstTokenMs: 120 }, 4);
    alice = await registerUser(h);
    bob = await registerUser(h);
  });
  afterAll(async () => {
    await engine.stop();
    await h.close();
  });

  it('reads a completed debate with counts, the verdict summary (confidence 0–1) and cost', async () => {
    const debate = await create(alice);
    await finished(debate.id);
    const res = await h.request<DebateObject>('GET', `/api/debates/${debate.id}`, { cookie: alice.cookie });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      id: debate.id,
      status: 'completed',
      agentCount: 3,
      roundCount: 1,
      ownerId: alice.session.user.id,
    });
    expect(res.json.verdict?.confidence).toBeGreaterThanOrEqual(0);
    expect(res.json.verdict?.confidence).toBeLessThanOrEqual(1);
    expect(res.json.verdict?.agentsUsed.every((m) => m.startsWith('simulated/'))).toBe(true);
    expect(res.json.cost?.llmCalls).toBe(5); // three debaters, the judge, the classifier
    // Inserted as paid by the test without a ledger debit: charged nothing; the simulated model is free.
    expect(res.json.cost).toMatchObject({ credits: 0, estimatedUsd: 0 });
  });

  it('hides counts, verdict and cost until completion', async () => {
    const debate = await create(alice, { rounds: 3 });
    const res = await h.request<DebateObject>('GET', `/api/debates/${debate.id}`, { cookie: alice.cookie });
    expect(res.json).toMatchObject({
      agentCount: null,
      roundCount: null,
      verdict: null,
      cost: null,
      completedAt: null,
    });
    await finished(debate.id);
  });

  it("answers 404, never 403, for another user's private debate and for a missing one", async () => {
    const debate = await create(alice);
    expectError(await h.request('GET', `/api/debates/${debate.id}`, { cookie: bob.cookie }), 'NOT_FOUND');
    expectError(await h.request('GET', `/api/debates/${MISSING}`, { cookie: alice.cookie }), 'NOT_FOUND');
    expectError(
      await h.request('GET', '/api/debates/not-a-uuid', { cookie: alice.cookie }),
      'VALIDATION_ERROR',
    );
    expectError(await h.request('GET', `/api/debates/${debate.id}`), 'UNAUTHORIZED');
    await finished(debate.id);
  });

  it("lists only the caller's debates, paginated, filtered and sorted", async () => {
    const carol = await registerUser(h);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await create(carol)).id);
    for (const id of ids) await finished(id);
    const page1 = await h.request<DebatePage>('GET', '/api/debates?limit=2&page=1', { cookie: carol.cookie });
    expect(page1.status).toBe(200);
    expect(page1.json).toMatchObject({ page: 1, limit: 2, total: 3, totalPages: 2 });
    expect(page1.json.debates.map((d) => d.id)).toEqual([ids[2], ids[1]]);
    const asc = await h.request<DebatePage>('GET', '/api/debates?sortOrder=asc&status=completed', {
      cookie: carol.cookie,
    });
    expect(asc.json.debates.map((d) => d.id)).toEqual(ids);
    const none = await h.request<DebatePage>('GET', '/api/debates?status=paused', { cookie: carol.cookie });
    expect(none.json.total).toBe(0);
    const other = await h.request<DebatePage>('GET', '/api/debates', { cookie: bob.cookie });
    expect(other.json.debates.some((d) => ids.includes(d.id))).toBe(false);
    expectError(
      await h.request('GET', '/api/debates?limit=101', { cookie: carol.cookie }),
      'VALIDATION_ERROR',
    );
    expectError(
      await h.request('GET', '/api/debates?status=done', { cookie: carol.cookie }),
      'VALIDATION_ERROR',
    );
  });

  it('soft-deletes for the owner only: hidden from list and reads afterwards', async () => {
    const debate = await create(alice);
    await finished(debate.id);
    expectError(await h.request('DELETE', `/api/debates/${debate.id}`, { cookie: bob.cookie }), 'NOT_FOUND');
    expect((await h.request('DELETE', `/api/debates/${debate.id}`, { cookie: alice.cookie })).status).toBe(
      204,
    );
    expectError(await h.request('GET', `/api/debates/${debate.id}`, { cookie: alice.cookie }), 'NOT_FOUND');
    const list = await h.request<DebatePage>('GET', '/api/debates?limit=100', { cookie: alice.cookie });
    expect(list.json.debates.some((d) => d.id === debate.id)).toBe(false);
  });

  it('pauses, injects and resumes through the commands route, and answers 409 when no engine runs it', async () => {
    const debate = await create(alice, { rounds: 2 });
    await debateReaching(h.core, debate.id, { statuses: ['running'] });
    const path = `/api/debates/${debate.id}/commands`;
    const paused = await h.request<DebateCommandResult>('POST', path, {
      cookie: alice.cookie,
      body: { type: 'pause' },
    });
    expect(paused.status).toBe(200);
    expect(paused.json.accepted).toBe(true);
    await debateReaching(h.core, debate.id, { statuses: ['paused'] });
    const chart = await h.request<DebateStateChart>('GET', `/api/debates/${debate.id}/statechart`, {
      cookie: alice.cookie,
    });
    expect(chart.json.current).toEqual({ state: 'running.paused', live: true });
    expect(chart.json.history.map((t) => t.state)).toEqual(['pending', 'running.speaking', 'running.paused']);
    expect(chart.json.chart.states.map((s) => s.path)).toContain('judging');
    expectError(
      await h.request('POST', path, { cookie: alice.cookie, body: { type: 'inject' } }),
      'VALIDATION_ERROR',
    );
    expectError(
      await h.request('POST', path, { cookie: alice.cookie, body: { type: 'stop' } }),
      'VALIDATION_ERROR',
    );
    const injected = await h.request<DebateCommandResult>('POST', path, {
      cookie: alice.cookie,
      body: { type: 'inject', payload: { content: 'The team shrank to four people' } },
    });
    expect(injected.json.accepted).toBe(true);
    expectError(await h.request('POST', path, { cookie: bob.cookie, body: { type: 'resume' } }), 'NOT_FOUND');
    expect(
      (await h.request<DebateCommandResult>('POST', path, { cookie: alice.cookie, body: { type: 'resume' } }))
        .json.accepted,
    ).toBe(true);
    await finished(debate.id);
    expectError(
      await h.request('POST', path, { cookie: alice.cookie, body: { type: 'pause' } }),
      'DEBATE_NOT_RUNNING',
    );
    const after = await h.request<DebateStateChart>('GET', `/api/debates/${debate.id}/statechart`, {
      cookie: alice.cookie,
    });
    expect(after.json.current).toEqual({ state: 'completed', live: false });
  });

  it('names a debate by its id in capitals too: commands reach its engine and the chart shows it live', async () => {
    const debate = await create(alice, { rounds: 2 });
    await debateReaching(h.core, debate.id, { statuses: ['running'] });
    const upper = debate.id.toUpperCase();
    const paused = await h.request<DebateCommandResult>('POST', `/api/debates/${upper}/commands`, {
      cookie: alice.cookie,
      body: { type: 'pause' },
    });
    expect(paused.status, paused.text).toBe(200);
    expect(paused.json.accepted).toBe(true);
    await debateReaching(h.core, debate.id, { statuses: ['paused'] });
    const chart = await h.request<DebateStateChart>('GET', `/api/debates/${upper}/statechart`, {
      cookie: alice.cookie,
    });
    expect(chart.json.current).toEqual({ state: 'running.paused', live: true });
    const resumed = await h.request<DebateCommandResult>('POST', `/api/debates/${upper}/commands`, {
      cookie: alice.cookie,
      body: { type: 'resume' },
    });
    expect(resumed.json.accepted).toBe(true);
    await finished(debate.id);
  });

  const chartOf = async (id: string) =>
    (await h.request<DebateStateChart>('GET', `/api/debates/${id}/statechart`, { cookie: alice.cookie }))
      .json;
  const command = async (id: string, type: 'pause' | 'resume') =>
    (
      await h.request<DebateCommandResult>('POST', `/api/debates/${id}/commands`, {
        cookie: alice.cookie,
        body: { type },
      })
    ).json;

  it('answers the same chart live and once finished, with every stored event and the time it was stored', async () => {
    const debate = await create(alice, { rounds: 2 });
    await debateReaching(h.core, debate.id, { statuses: ['running'] });
    expect((await command(debate.id, 'pause')).accepted).toBe(true);
    await debateReaching(h.core, debate.id, { statuses: ['paused'] });
    const live = await chartOf(debate.id);
    expect(live.current).toEqual({ state: 'running.paused', live: true });
    expect((await command(debate.id, 'resume')).accepted).toBe(true);
    await finished(debate.id);
    const after = await chartOf(debate.id);

    expect(after.current).toEqual({ state: 'completed', live: false });
    // The stored history continues the one the engine held: the same entries, times and node, then the rest.
    expect(after.history.slice(0, live.history.length)).toEqual(live.history);
    expect(after.history.map((t) => t.state)).toEqual([
      'pending',
      'running.speaking',
      'running.paused',
      'running.speaking',
      'judging',
      'completed',
    ]);
    expect(new Set(after.history.map((t) => t.node))).toEqual(new Set([engine.nodeId]));
    expect(after.attempt).toBe(1);

    const events = after.events ?? [];
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    expect(events[0]?.type).toBe('debate.started');
    expect(events.at(-1)?.type).toBe('debate.completed');
    expect(events.filter((e) => e.type === 'argument' || e.type === 'rebuttal')).toHaveLength(6);
    // A transition is dated when its event arrived: before the events its step emitted.
    const started = after.history.find((t) => t.event === 'START');
    expect(Date.parse(started?.at ?? '')).toBeLessThanOrEqual(Date.parse(events[0]?.at ?? ''));
    const times = events.map((e) => Date.parse(e.at));
    expect(times.every((t) => Number.isFinite(t))).toBe(true);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    // As the stream sends it: the verdict's confidence in whole percent, not the stored 0–1.
    const confidence = events.find((e) => e.type === 'verdict')?.data.confidence;
    expect(Number.isInteger(confidence)).toBe(true);
    expect(live.events).toEqual(events.slice(0, live.events?.length));
  });

  it("answers from storage once the debate's node stops, and marks the next node's restore with both nodes", async () => {
    const debate = await create(alice, { rounds: 2 });
    await debateReaching(h.core, debate.id, { statuses: ['running'] });
    expect((await command(debate.id, 'pause')).accepted).toBe(true);
    await debateReaching(h.core, debate.id, { statuses: ['paused'] });
    const live = await chartOf(debate.id);
    const first = engine;
    await first.stop(); // hands the debate back

    const stored = await chartOf(debate.id);
    expect(stored.current).toEqual({ state: 'running.paused', live: false });
    expect(stored.history).toEqual(live.history);
    expect(stored.events).toEqual(live.events);

    engine = startTestEngine(h.core, { firstTokenMs: 120 }, 4);
    const restored = await eventually(
      () => chartOf(debate.id),
      (chart) => chart.current.live && chart.history.some((t) => t.event === 'xstate.restore'),
    );
    expect(restored.current).toEqual({ state: 'running.paused', live: true });
    expect((await command(debate.id, 'resume')).accepted).toBe(true);
    await finished(debate.id);
    const after = await chartOf(debate.id);

    const restoreAt = after.history.findIndex((t) => t.event === 'xstate.restore');
    expect(after.history.slice(0, restoreAt)).toEqual(live.history);
    expect(after.history[restoreAt]).toMatchObject({ state: 'running.paused', node: engine.nodeId });
    expect(after.history[restoreAt - 1]?.node).toBe(first.nodeId);
    expect(engine.nodeId).not.toBe(first.nodeId);
    expect(after.history.slice(restoreAt).every((t) => t.node === engine.nodeId)).toBe(true);
    expect(after.history.at(-1)?.state).toBe('completed');
    expect(after.current).toEqual({ state: 'completed', live: false });
  });

  it("keeps the state chart of another user's debate private", async () => {
    const debate = await create(alice);
    expectError(
      await h.request('GET', `/api/debates/${debate.id}/statechart`, { cookie: bob.cookie }),
      'NOT_FOUND',
    );
    await finished(debate.id);
  });

  it("shows a public debate's chart to any reader, with the engine nodes to its creator only", async () => {
    const debate = await create(alice);
    await finished(debate.id);
    const published = await h.request('PATCH', `/api/debates/${debate.id}/visibility`, {
      cookie: alice.cookie,
      body: { isPublic: true },
    });
    expect(published.status, published.text).toBe(200);
    type Chart = { history: { state: string; node?: string }[]; events: unknown[] };
    const mine = await h.request<Chart>('GET', `/api/debates/${debate.id}/statechart`, {
      cookie: alice.cookie,
    });
    const theirs = await h.request<Chart>('GET', `/api/debates/${debate.id}/statechart`, {
      cookie: bob.cookie,
    });
    expect(theirs.status).toBe(200);
    expect(mine.json.history.length).toBeGreaterThan(1);
    expect(mine.json.history.every((step) => typeof step.node === 'string')).toBe(true);
    expect(theirs.json.history.some((step) => 'node' in step)).toBe(false);
    expect(theirs.json.history.map((step) => step.state)).toEqual(
      mine.json.history.map((step) => step.state),
    );
    expect(theirs.json.events).toEqual(mine.json.events);
  });
});
