import { createTRPCClient, httpLink, TRPCClientError } from '@trpc/client';
import type { AppRouter } from '@verdict/api';
import type { ErrorCode } from '@verdict/contracts';
import { eventually } from '@verdict/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, apiClient, expectBody } from './support/api-client.ts';
import { readSse } from './support/sse.ts';
import { MODES, type Stack, signUpPro, startStack } from './support/stack.ts';

// Debates driven over HTTP, in each mode: the API and an engine node as separate processes on PostgreSQL and
// NATS, and the embedded default's one process.
describe.each(MODES)('debates end to end over HTTP (%s)', (mode) => {
  let stack: Stack;
  /** A signed-up user on the pro plan: its key, and a client on its session cookie and one on its key. */
  type User = { cookie: string; key: string; session: ApiClient; keyed: ApiClient };
  let alice: User;
  let bob: User;

  const signUp = async (label: string): Promise<User> => {
    const user = await signUpPro(stack, label);
    const created = await user.client.POST('/api/keys', { body: { name: label } });
    const key = created.data?.key as string;
    return { cookie: user.cookie, key, session: user.client, keyed: apiClient(stack.baseUrl, { key }) };
  };
  /** The debate's verdict view, once its status is one of `statuses`. */
  const waitFor = async (id: string, statuses: string[], user: User) => {
    const res = await eventually(
      () => user.keyed.GET('/v1/verdicts/{id}', { params: { path: { id } } }),
      (res) => res.data !== undefined && statuses.includes(res.data.debate.status),
      30_000,
    );
    return expectBody(res, 200);
  };

  beforeAll(async () => {
    stack = await startStack(mode, 'e2e', { SIMULATED_FIRST_TOKEN_MS: '150' });
    [alice, bob] = await Promise.all([signUp('alice'), signUp('bob')]);
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('creates on /v1, streams with a reconnect mid-debate, and reads the verdict', async () => {
    const created = expectBody(
      await alice.keyed.POST('/v1/verdicts', {
        body: { question: 'Should we move our support desk to a four-day week?', mode: 'balanced' },
      }),
      201,
    );
    const auth = { authorization: `Bearer ${alice.key}` };
    // PORT=0 here, so the configured public base URL is not the address the test reaches: keep the path.
    const streamUrl = `${stack.baseUrl}${new URL(created.streamUrl).pathname}`;
    expect(streamUrl).toMatch(/\/v1\/verdicts\/[0-9a-f-]{36}\/stream$/);
    const first = await readSse(streamUrl, auth, { stopAfter: 4 });
    expect(first.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const lastId = first.messages.at(-1)?.id ?? 0;
    const rest = await readSse(streamUrl, { ...auth, 'Last-Event-ID': String(lastId) });
    expect(rest.closedByServer).toBe(true);
    const all = [...first.messages, ...rest.messages];
    expect(all.map((m) => m.id)).toEqual(all.map((_, i) => i + 1)); // no gap, no duplicate
    expect(all[0]?.event).toBe('debate.started');
    expect(all.at(-1)?.event).toBe('debate.completed');
    const verdictEvent = all.find((m) => m.event === 'verdict');
    expect(Number.isInteger(verdictEvent?.data.confidence)).toBe(true);
    expect(all.filter((m) => m.event === 'rebuttal').length).toBe(5); // balanced: 5 agents, round 2 rebuts
    const read = await waitFor(created.debateId, ['completed'], alice);
    expect(read.verdict?.recommendation).toBe(verdictEvent?.data.recommendation);
    const replay = await readSse(streamUrl, auth);
    expect(replay.messages.map((m) => m.id)).toEqual(all.map((m) => m.id)); // a finished debate at once
  });

  it('pauses and resumes through REST while the engine process runs the debate', async () => {
    const created = expectBody(
      await alice.session.POST('/api/debates', {
        body: {
          question: 'Should the platform team adopt trunk-based development?',
          mode: 'thorough',
          agentCount: 2,
          maxRounds: 3,
        },
      }),
      201,
    );
    const id = created.debateId;
    const path = { id };
    await waitFor(id, ['running'], alice);
    const paused = await alice.session.POST('/api/debates/{id}/commands', {
      params: { path },
      body: { type: 'pause' },
    });
    expect(paused.data?.accepted).toBe(true);
    await waitFor(id, ['paused'], alice);
    const chart = await alice.session.GET('/api/debates/{id}/statechart', { params: { path } });
    expect(chart.data?.current).toEqual({ state: 'running.paused', live: true });
    const resumed = await alice.session.POST('/api/debates/{id}/commands', {
      params: { path },
      body: { type: 'resume' },
    });
    expect(resumed.data?.accepted).toBe(true);
    const done = await waitFor(id, ['completed'], alice);
    expect(done.debate.roundCount).toBe(3);
    const late = await alice.session.POST('/api/debates/{id}/commands', {
      params: { path },
      body: { type: 'skip' },
    });
    expect(late.response.status).toBe(409);
    expect(late.error?.error.code).toBe('DEBATE_NOT_RUNNING');
  });

  it('gives a completed debate its pending outcome; an outcome recorded over REST moves the score within 2 s', async () => {
    const created = expectBody(
      await alice.session.POST('/api/debates', {
        body: {
          question: 'Should we move the billing service to a managed cloud database?',
          skipCache: true,
        },
      }),
      201,
    );
    const second = expectBody(
      await alice.session.POST('/api/debates', {
        body: { question: 'Should the clinic extend its opening hours for patients?', skipCache: true },
      }),
      201,
    );
    const path = { id: created.debateId };
    await waitFor(created.debateId, ['completed'], alice);
    await waitFor(second.debateId, ['completed'], alice);
    const outcome = expectBody(
      await alice.session.GET('/api/debates/{id}/outcome', { params: { path } }),
      200,
    );
    expect(outcome).toMatchObject({
      debateId: created.debateId,
      outcomeStatus: 'pending',
      domain: 'technology',
    });
    const pending = expectBody(await alice.session.GET('/api/outcomes/pending'), 200);
    expect(pending.outcomes.map((o) => o.debateId)).toContain(created.debateId);
    const before = expectBody(await alice.session.GET('/api/scores/me'), 200);

    const recorded = expectBody(
      await alice.keyed.POST('/api/debates/{id}/outcome', {
        params: { path },
        body: { outcomeStatus: 'correct', satisfactionScore: 4 },
      }),
      200,
    );
    expect(recorded.outcomeStatus).toBe('correct');
    const at = Date.now();
    const after = await eventually(
      async () => expectBody(await alice.session.GET('/api/scores/me'), 200),
      (score) => score.totalResolved === before.totalResolved + 1,
      2000,
    );
    expect(Date.now() - at).toBeLessThan(2000);
    expect(after.streak).toBe(before.streak + 1);
    expect(after.domainScores.technology).toBeCloseTo((outcome.confidence - 1) ** 2, 4);

    // Every other outcome, score and streak route, through the same generated client.
    const secondPath = { id: second.debateId };
    const reminded = expectBody(
      await alice.session.PATCH('/api/debates/{id}/outcome/reminder', {
        params: { path: secondPath },
        body: { reminderAt: '2030-01-01T08:00:00Z' },
      }),
      200,
    );
    expect(reminded.reminderAt).toBe('2030-01-01T08:00:00.000Z');
    const skipped = expectBody(
      await alice.session.POST('/api/debates/{id}/outcome/skip', { params: { path: secondPath } }),
      200,
    );
    expect(skipped).toMatchObject({ debateId: second.debateId, outcomeStatus: 'skipped', domain: 'health' });
    const stillPending = expectBody(await alice.session.GET('/api/outcomes/pending'), 200);
    expect(stillPending.outcomes.map((o) => o.debateId)).not.toContain(second.debateId);
    const history = expectBody(
      await alice.session.GET('/api/outcomes/history', { params: { query: { domain: 'technology' } } }),
      200,
    );
    expect(history.outcomes.map((o) => [o.debateId, o.outcomeStatus])).toEqual([
      [created.debateId, 'correct'],
    ]);
    const trend = expectBody(
      await alice.session.GET('/api/scores/me/trend', { params: { query: { days: 7 } } }),
      200,
    );
    expect(trend.at(-1)?.sampleSize).toBe(after.totalResolved);
    // Fewer than five resolved outcomes: no calibration yet.
    expect(expectBody(await alice.session.GET('/api/scores/me/calibration'), 200)).toEqual([]);
    const domains = expectBody(await alice.session.GET('/api/scores/me/domains'), 200);
    expect(domains.find((d) => d.domain === 'technology')).toMatchObject({ sampleSize: 1, trend: 'stable' });
    const streaks = expectBody(await alice.session.GET('/api/streaks'), 200);
    expect(streaks).toMatchObject({ currentStreak: 1, longestStreak: 1 });
    expect(streaks.totalDebates).toBeGreaterThanOrEqual(2);
  });

  it("keeps every route of another user's debate at 404", async () => {
    const created = await alice.keyed.POST('/v1/verdicts', {
      body: { question: 'Private question?', mode: 'fast' },
    });
    const id = created.data?.debateId as string;
    const params = { path: { id } };
    const client = bob.keyed;
    const routes: [string, () => Promise<{ error?: { error: { code: string } }; response: Response }>][] = [
      ['GET /api/debates/{id}', () => client.GET('/api/debates/{id}', { params })],
      ['GET /v1/verdicts/{id}', () => client.GET('/v1/verdicts/{id}', { params })],
      ['GET /api/debates/{id}/analytics', () => client.GET('/api/debates/{id}/analytics', { params })],
      ['GET /api/debates/{id}/statechart', () => client.GET('/api/debates/{id}/statechart', { params })],
      ['GET /api/debates/{id}/cost', () => client.GET('/api/debates/{id}/cost', { params })],
      [
        'POST /api/debates/{id}/commands',
        () => client.POST('/api/debates/{id}/commands', { params, body: { type: 'pause' } }),
      ],
      ['POST /api/debates/{id}/retry', () => client.POST('/api/debates/{id}/retry', { params })],
      ['POST /api/debates/{id}/fork', () => client.POST('/api/debates/{id}/fork', { params, body: {} })],
      ['DELETE /api/debates/{id}', () => client.DELETE('/api/debates/{id}', { params })],
      ['DELETE /v1/verdicts/{id}', () => client.DELETE('/v1/verdicts/{id}', { params })],
    ];
    for (const [route, send] of routes) {
      const res = await send();
      expect({ route, status: res.response.status, code: res.error?.error.code }).toEqual({
        route,
        status: 404,
        code: 'NOT_FOUND',
      });
    }
    const stream = await readSse(`${stack.baseUrl}/v1/verdicts/${id}/stream`, {
      authorization: `Bearer ${bob.key}`,
    });
    expect(stream.status).toBe(404);
    await waitFor(id, ['completed'], alice);
  });

  it('estimates a debate on the simulated model at 0 USD, and its recorded calls cost 0 and add up', async () => {
    const body = { question: 'Should we open a second office in Lisbon?', mode: 'fast' as const };
    const estimate = expectBody(await alice.keyed.POST('/v1/verdicts/estimate', { body }), 200);
    expect(estimate).toMatchObject({
      simulated: true,
      credits: 1,
      charge: 1,
      usd: { low: 0, expected: 0, high: 0 },
    });
    expect(estimate.note).toMatch(/^Simulated/);
    expect(estimate.models.every((m) => m.provider === 'simulated' && !m.priced)).toBe(true);
    const created = expectBody(await alice.keyed.POST('/v1/verdicts', { body }), 201);
    const done = await waitFor(created.debateId, ['completed'], alice);
    const cost = expectBody(
      await alice.session.GET('/api/debates/{id}/cost', { params: { path: { id: created.debateId } } }),
      200,
    );
    expect(cost.calls.filter((c) => c.kind === 'turn')).toHaveLength(3);
    expect(cost.calls.filter((c) => c.kind === 'judge').length).toBeGreaterThanOrEqual(1);
    expect(cost.calls.every((c) => c.costUsd === 0)).toBe(true);
    expect(cost.totalUsd).toBe(0);
    expect(done.debate.cost).toMatchObject({
      estimatedUsd: 0,
      inputTokens: cost.inputTokens,
      outputTokens: cost.outputTokens,
      llmCalls: cost.calls.length,
      credits: 1,
    });
  });

  it('serves the same procedures to a typed tRPC client, with typed error codes', async () => {
    const client = createTRPCClient<AppRouter>({
      links: [httpLink({ url: `${stack.baseUrl}/trpc`, headers: { authorization: `Bearer ${alice.key}` } })],
    });
    const page = await client.debates.list.query({ limit: 5 });
    expect(page.debates.length).toBeGreaterThan(0);
    const first = page.debates[0];
    expect(first?.ownerId).toBeTypeOf('string');
    let code: ErrorCode | undefined;
    try {
      await client.debates.command.mutate({ id: first?.id ?? '', type: 'pause' });
    } catch (err) {
      if (err instanceof TRPCClientError) code = (err.data as { appCode?: ErrorCode }).appCode;
    }
    expect(code).toBe('DEBATE_NOT_RUNNING');
  });
});
