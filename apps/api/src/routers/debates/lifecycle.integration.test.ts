import type { CreatedDebate, DebateAnalytics, DebateObject } from '@verdict/contracts';
import { debateReaching } from '@verdict/core/testing';
import type { EngineNode, SimulatedOptions } from '@verdict/engine';
import { startTestEngine } from '@verdict/engine/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectError,
  type Harness,
  registerUser,
  startServer,
  type TestUser,
} from '../../testing/http-harness.ts';

const QUESTION = 'Should we replace our on-call rotation with a follow-the-sun team?';

describe('retry, fork and analytics', () => {
  let h: Harness;
  let engine: EngineNode | null = null;
  let alice: TestUser;
  let bob: TestUser;

  const startEngine = async (simulated: SimulatedOptions) => {
    await engine?.stop();
    engine = startTestEngine(h.core, simulated, 4);
  };
  const create = async (user: TestUser, question = QUESTION) => {
    const res = await h.request<CreatedDebate>('POST', '/api/debates', {
      cookie: user.cookie,
      body: { question, skipCache: true },
    });
    expect(res.status).toBe(201);
    return res.json.debateId;
  };
  const settled = (id: string) => debateReaching(h.core, id);
  const balance = async (user: TestUser) =>
    (await h.core.accounts.findUser(user.session.user.id))?.creditBalance;

  beforeAll(async () => {
    h = await startServer({ env: { CONCURRENT_DEBATES: '50' } });
    alice = await registerUser(h);
    bob = await registerUser(h);
  });
  afterAll(async () => {
    await engine?.stop();
    await h.close();
  });

  it('retries a debate that failed for its provider: refunded, charged again, a fresh attempt with fresh events', async () => {
    await startEngine({ firstTokenMs: 5, fail: (request) => (request.json ? 'server' : null) });
    const id = await create(alice);
    expect((await settled(id))?.status).toBe('failed');
    expect(await balance(alice)).toBe(10); // the failed debate's credit came back
    expectError(await h.request('POST', `/api/debates/${id}/retry`, { cookie: bob.cookie }), 'NOT_FOUND');

    await startEngine({ firstTokenMs: 5 });
    const retried = await h.request('POST', `/api/debates/${id}/retry`, { cookie: alice.cookie });
    expect(retried.status).toBe(200);
    expect(retried.json).toEqual({ debateId: id, attempt: 2, status: 'pending' });
    expect(await balance(alice)).toBe(9);
    const done = await settled(id);
    expect(done).toMatchObject({ status: 'completed', attempt: 2 });
    const attempts = await h.core.db.execute<{ attempt: number }>(
      'select distinct attempt from debate_events where debate_id = ?',
      [id],
    );
    expect(attempts.map((a) => Number(a.attempt))).toEqual([2]);
    expectError(
      await h.request('POST', `/api/debates/${id}/retry`, { cookie: alice.cookie }),
      'DEBATE_NOT_FAILED',
    );
  });

  it('refuses to retry a debate an engine is running with 409 DEBATE_ALREADY_RUNNING', async () => {
    await startEngine({ firstTokenMs: 400 });
    const id = await create(alice);
    await debateReaching(h.core, id, { statuses: ['running'] });
    expectError(
      await h.request('POST', `/api/debates/${id}/retry`, { cookie: alice.cookie }),
      'DEBATE_ALREADY_RUNNING',
    );
    await settled(id);
  });

  it('forks only public debates, in fast mode on the caller billing, optionally with a new question', async () => {
    await startEngine({ firstTokenMs: 5 });
    const source = await create(alice);
    await settled(source);
    expectError(
      await h.request('POST', `/api/debates/${source}/fork`, { cookie: bob.cookie, body: {} }),
      'NOT_FOUND',
    );
    await h.core.db.execute('update debates set is_public = true where id = ?', [source]);
    const before = await balance(bob);
    const fork = await h.request<CreatedDebate>('POST', `/api/debates/${source}/fork`, {
      cookie: bob.cookie,
      body: { modifiedQuestion: 'Should we hire a second SRE team in Asia instead?' },
    });
    expect(fork.status).toBe(201);
    expect(await balance(bob)).toBe((before ?? 0) - 1);
    const forked = await h.request<DebateObject>('GET', `/api/debates/${fork.json.debateId}`, {
      cookie: bob.cookie,
    });
    expect(forked.json).toMatchObject({
      question: 'Should we hire a second SRE team in Asia instead?',
      mode: 'fast',
      ownerId: bob.session.user.id,
    });
    const plain = await h.request<CreatedDebate>('POST', `/api/debates/${source}/fork`, {
      cookie: bob.cookie,
      body: {},
    });
    const same = await h.request<DebateObject>('GET', `/api/debates/${plain.json.debateId}`, {
      cookie: bob.cookie,
    });
    expect(same.json.question).toBe(QUESTION);
    expectError(
      await h.request('POST', `/api/debates/${source}/fork`, {
        cookie: bob.cookie,
        body: { modifiedQuestion: 'x'.repeat(501) },
      }),
      'VALIDATION_ERROR',
    );
  });

  it('reports duration, rounds, turns and tokens per agent next to the caller averages, to the owner only', async () => {
    await startEngine({ firstTokenMs: 20 });
    const id = await create(alice, `${QUESTION} (analytics)`);
    await settled(id);
    const res = await h.request<DebateAnalytics>('GET', `/api/debates/${id}/analytics`, {
      cookie: alice.cookie,
    });
    expect(res.status).toBe(200);
    expect(res.json.agents).toHaveLength(3);
    expect(
      res.json.agents.every((a) => a.turns === 1 && a.outputTokens > 0 && a.model.startsWith('simulated/')),
    ).toBe(true);
    expect(res.json.durationMs).toBeGreaterThanOrEqual(40);
    expect(res.json).toMatchObject({ status: 'completed', rounds: 1 });
    expect(res.json.averages.debates).toBeGreaterThanOrEqual(2);
    expect(res.json.averages.rounds).toBe(1);
    expectError(await h.request('GET', `/api/debates/${id}/analytics`, { cookie: bob.cookie }), 'NOT_FOUND');
  });
});
