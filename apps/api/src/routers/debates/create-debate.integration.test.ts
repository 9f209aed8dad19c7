import type { CreatedDebate, DebateObject } from '@verdict/contracts';
import { storeFinalState } from '@verdict/engine/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createKey,
  expectError,
  type Harness,
  registerUser,
  startServer,
  type TestUser,
} from '../../testing/http-harness.ts';

const QUESTION = 'Should we open a second office in Lisbon next year?';
/** The lease of a debate's first attempt that no node has claimed. */
const firstAttempt = (debateId: string) => ({ debateId, attempt: 1, epoch: 0 });

// No engine runs here: created debates stay pending, which is what the limits count.
describe('creating debates', () => {
  let h: Harness;
  const balance = async (user: TestUser) =>
    (await h.core.accounts.findUser(user.session.user.id))?.creditBalance ?? Number.NaN;
  const ledgerSum = async (user: TestUser) =>
    Number(
      (
        await h.core.db.execute<{ s: number }>(
          'select coalesce(sum(delta), 0)::int as s from credit_ledger where user_id = ?',
          [user.session.user.id],
        )
      )[0]?.s,
    );
  const setBalance = (user: TestUser, credits: number) =>
    h.core.db.execute('update users set credit_balance = ? where id = ?', [credits, user.session.user.id]);
  const post = (user: TestUser, body: unknown, headers: Record<string, string> = {}) =>
    h.request<CreatedDebate>('POST', '/api/debates', { cookie: user.cookie, body, headers });

  beforeAll(async () => {
    h = await startServer({ env: { FREE_MONTHLY_DEBATES: '2', CONCURRENT_DEBATES: '50' } });
  });
  afterAll(async () => {
    await h.close();
  });

  it('answers 201 at once with the id, the stream URL and, on the free plan, the judge model; charges credits', async () => {
    const user = await registerUser(h);
    const res = await post(user, { question: QUESTION });
    expect(res.status).toBe(201);
    // No PUBLIC_BASE_URL: on the address the request came to.
    expect(res.json.streamUrl).toBe(`${h.baseUrl}/api/debates/${res.json.debateId}/stream`);
    expect(res.json.judgeModel).toBe('simulated/opus');
    expect(res.json.cached).toBe(false);
    expect(await balance(user)).toBe(9);
    expect(await ledgerSum(user)).toBe(9);
    const debate = await h.request<DebateObject>('GET', `/api/debates/${res.json.debateId}`, {
      cookie: user.cookie,
    });
    expect(debate.json).toMatchObject({ status: 'pending', mode: 'fast', fundingSource: 'user_credits' });
  });

  it('never overdraws under parallel creates: one thorough debate fits 10 credits, the rest get QUOTA_EXCEEDED', async () => {
    const user = await registerUser(h);
    await h.core.accounts.setPlan(user.session.user.id, 'pro');
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) => post(user, { question: `${QUESTION} (${i})`, mode: 'thorough' })),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    for (const r of results.filter((r) => r.status !== 201))
      expectError(r, 'QUOTA_EXCEEDED', { extras: ['required', 'balance'] });
    expect(await balance(user)).toBe(2);
    expect(await ledgerSum(user)).toBe(2);
  });

  it('moves a free-plan account without credits to the free tier, then refuses with the monthly limit', async () => {
    const user = await registerUser(h);
    await setBalance(user, 0);
    for (let i = 0; i < 2; i++) {
      const res = await post(user, { question: `${QUESTION} free ${i}` });
      expect(res.status).toBe(201);
      expect(res.json.judgeModel).toBe('simulated/haiku');
    }
    const refused = await post(user, { question: `${QUESTION} free 3` });
    const error = expectError(refused, 'MONTHLY_LIMIT_REACHED', { extras: ['limit', 'upgradeUrl'] });
    expect(error).toMatchObject({ limit: 2, upgradeUrl: `${h.baseUrl}/pricing` });
  });

  it('limits simultaneous debates with CONCURRENT_LIMIT {activeCount, limit}', async () => {
    const limited = await startServer({ env: { CONCURRENT_DEBATES: '2' } });
    try {
      const user = await registerUser(limited);
      for (let i = 0; i < 2; i++) {
        expect(
          (
            await limited.request('POST', '/api/debates', {
              cookie: user.cookie,
              body: { question: `${QUESTION} ${i}` },
            })
          ).status,
        ).toBe(201);
      }
      const refused = await limited.request('POST', '/api/debates', {
        cookie: user.cookie,
        body: { question: `${QUESTION} 3` },
      });
      expect(expectError(refused, 'CONCURRENT_LIMIT', { extras: ['activeCount', 'limit'] })).toMatchObject({
        activeCount: 2,
        limit: 2,
      });
      // At once: each create counts after taking the account's lock, so it sees those that went before it.
      const other = await registerUser(limited);
      const racing = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          limited.request('POST', '/api/debates', {
            cookie: other.cookie,
            body: { question: `${QUESTION} at once ${i}` },
          }),
        ),
      );
      expect(racing.map((res) => res.status).sort()).toEqual([201, 201, 429, 429, 429, 429]);
    } finally {
      await limited.close();
    }
  });

  it('reports missing credits on /v1 as 402 INSUFFICIENT_CREDITS, and creates there in balanced mode by default', async () => {
    const user = await registerUser(h);
    await h.core.accounts.setPlan(user.session.user.id, 'pro');
    const key = await createKey(h, user);
    const ok = await h.request<CreatedDebate>('POST', '/v1/verdicts', {
      key: key.key,
      body: { question: 'Hire a CFO?' },
    });
    expect(ok.status).toBe(201);
    expect(ok.json.streamUrl).toBe(`${h.baseUrl}/v1/verdicts/${ok.json.debateId}/stream`);
    expect(ok.json.judgeModel).toBeUndefined(); // not the free plan
    expect(await balance(user)).toBe(7);
    const compare = await h.request('POST', '/v1/verdicts', {
      key: key.key,
      body: { question: 'Which CRM?', options: ['Salesforce', 'HubSpot'], mode: 'fast' },
    });
    expect(compare.status).toBe(201);
    expect(await balance(user)).toBe(2); // a comparison costs 5
    const refused = await h.request('POST', '/v1/verdicts', {
      key: key.key,
      body: { question: 'Hire a CTO?' },
    });
    expect(expectError(refused, 'INSUFFICIENT_CREDITS', { extras: ['required', 'balance'] })).toMatchObject({
      required: 3,
      balance: 2,
    });
    expectError(
      await h.request('POST', '/v1/verdicts', { cookie: user.cookie, body: { question: 'x?' } }),
      'UNAUTHORIZED',
    );
  });

  it('replays the first debate for the same Idempotency-Key and body, charging once; 409 for another body', async () => {
    const user = await registerUser(h);
    const headers = { 'Idempotency-Key': 'order-42' };
    const first = await post(user, { question: QUESTION, mode: 'balanced' }, headers);
    const again = await post(user, { question: QUESTION, mode: 'balanced' }, headers);
    expect(again.status).toBe(201);
    expect(again.json.debateId).toBe(first.json.debateId);
    expect(await balance(user)).toBe(7);
    expectError(await post(user, { question: `${QUESTION}!`, mode: 'balanced' }, headers), 'CONFLICT');
    const other = await registerUser(h);
    expect((await post(other, { question: QUESTION }, headers)).json.debateId).not.toBe(first.json.debateId);
  });

  it('answers an identical recent question from cache without charging, unless skipCache', async () => {
    const user = await registerUser(h);
    const first = await post(user, { question: QUESTION, context: 'Team of 12' });
    await h.core.db.execute(`update debates set status = 'completed', completed_at = now() where id = ?`, [
      first.json.debateId,
    ]);
    const cached = await post(user, { question: QUESTION, context: 'Team of 12' });
    expect(cached.json).toMatchObject({ debateId: first.json.debateId, cached: true });
    expect(await balance(user)).toBe(9);
    const differentContext = await post(user, { question: QUESTION, context: 'Team of 13' });
    expect(differentContext.json.cached).toBe(false);
    const differentPanel = await post(user, { question: QUESTION, context: 'Team of 12', agentCount: 5 });
    expect(differentPanel.json.cached).toBe(false);
    const fresh = await post(user, { question: QUESTION, context: 'Team of 12', skipCache: true });
    expect(fresh.json.debateId).not.toBe(first.json.debateId);
    expect(await balance(user)).toBe(6);
  });

  it('runs BYOK plans on X-Provider-Keys in either format without charging; refuses keys on other plans', async () => {
    const user = await registerUser(h);
    await h.core.accounts.setPlan(user.session.user.id, 'byok');
    expectError(await post(user, { question: QUESTION }), 'VALIDATION_ERROR');
    const csv = await post(
      user,
      { question: `${QUESTION} a` },
      { 'X-Provider-Keys': 'anthropic:sk-ant-test-123456' },
    );
    expect(csv.status).toBe(201);
    const json = await post(
      user,
      { question: `${QUESTION} b` },
      { 'X-Provider-Keys': '{"openai":"sk-test-abcdefgh"}' },
    );
    expect(json.status).toBe(201);
    const read = await h.request<DebateObject>('GET', `/api/debates/${json.json.debateId}`, {
      cookie: user.cookie,
    });
    expect(read.json.fundingSource).toBe('byok');
    expect(await balance(user)).toBe(10);
    const bad = await post(
      user,
      { question: `${QUESTION} c` },
      { 'X-Provider-Keys': 'anthropic=sk-ant-test-123456' },
    );
    expect(expectError(bad, 'VALIDATION_ERROR').message).not.toContain('sk-ant-test');
    const stored = await h.core.db.execute('select * from debates where id = ?', [csv.json.debateId]);
    expect(JSON.stringify(stored)).not.toContain('sk-ant-test-123456');
    const free = await registerUser(h);
    const refused = expectError(
      await post(free, { question: QUESTION }, { 'X-Provider-Keys': 'openai:sk-test-abcdefgh' }),
      'BYOK_REQUIRED',
      { extras: ['requiredPlan', 'upgradeUrl'] },
    ) as { requiredPlan?: string; upgradeUrl?: string };
    expect(refused.requiredPlan).toBe('byok');
    expect(refused.upgradeUrl).toMatch(/\/pricing$/);
  });

  it('validates the body: lengths, ranges, unknown fields, workspace and attachment rules', async () => {
    const user = await registerUser(h);
    const cases: [unknown, string][] = [
      [{ question: 'Too short' }, 'question'],
      [{ question: 'x'.repeat(2001) }, 'question'],
      [{ question: QUESTION, context: 'x'.repeat(5001) }, 'context'],
      [{ question: QUESTION, agentCount: 8 }, 'agentCount'],
      [{ question: QUESTION, maxRounds: 0 }, 'maxRounds'],
      [{ question: QUESTION, mode: 'slow' }, 'mode'],
      [{ question: QUESTION, preset: 'turbo' }, 'preset'],
      [{ question: QUESTION, agentCount: '3' }, 'agentCount'],
      [{ question: QUESTION, colour: 'blue' }, ''],
      [{}, 'question'],
    ];
    for (const [body, path] of cases) {
      const error = expectError(await post(user, body), 'VALIDATION_ERROR');
      expect(error.details?.map((d) => d.path)).toContain(path);
    }
    expectError(
      await post(user, { question: QUESTION, workspaceId: '00000000-0000-4000-8000-000000000000' }),
      'FORBIDDEN',
    );
    const gated = expectError(
      await post(user, { question: QUESTION, attachmentIds: ['00000000-0000-4000-8000-000000000000'] }),
      'BYOK_REQUIRED',
      { extras: ['requiredPlan', 'upgradeUrl'] },
    ) as { requiredPlan?: string };
    expect(gated.requiredPlan).toBe('byok_pro');
    expect(await balance(user)).toBe(10);
  });

  it('prices a panel of its own never below its mode, and a larger one by its size, on both routes and on retry', async () => {
    const user = await registerUser(h);
    await h.core.accounts.setPlan(user.session.user.id, 'pro');
    await setBalance(user, 100);
    const cases = [
      // The mode's own panel: the mode's price.
      [{ mode: 'fast' }, 1],
      [{ mode: 'balanced', agentCount: 5, maxRounds: 2 }, 3],
      // Smaller than the mode's: still the mode's price.
      [{ mode: 'thorough', agentCount: 2, maxRounds: 1 }, 8],
      [{ mode: 'balanced', agentCount: 2 }, 3],
      // Larger than the mode's: ⌊agents × rounds ÷ 3⌋.
      [{ mode: 'fast', agentCount: 7, maxRounds: 5 }, 11],
      [{ mode: 'fast', maxRounds: 2 }, 2],
      [{ mode: 'thorough', agentCount: 7, maxRounds: 4 }, 9],
    ] as const;
    for (const [panel, credits] of cases) {
      const before = await balance(user);
      const res = await post(user, { question: QUESTION, skipCache: true, ...panel });
      expect(res.status, JSON.stringify(panel)).toBe(201);
      expect(before - (await balance(user)), JSON.stringify(panel)).toBe(credits);
    }
    const { key } = await createKey(h, user);
    const before = await balance(user);
    const v1 = await h.request<CreatedDebate>('POST', '/v1/verdicts', {
      key,
      body: { question: QUESTION, mode: 'fast', agentCount: 7, maxRounds: 5, skipCache: true },
    });
    expect(v1.status, v1.text).toBe(201);
    expect(before - (await balance(user))).toBe(11);
    const [stored] = await h.core.db.execute<{ agents: number; rounds: number }>(
      'select requested_agents as agents, requested_rounds as rounds from debates where id = ?',
      [v1.json.debateId],
    );
    expect(stored).toEqual({ agents: 7, rounds: 5 });

    // A failed provider refunds the 11; the retry takes the same 11 again, not fast's 1.
    const failed = {
      status: 'failed' as const,
      code: 'PROVIDER_ERROR',
      message: 'judge failed',
      cost: { inputTokens: 0, outputTokens: 0, estimatedUsd: 0, credits: 11, llmCalls: 1 },
    };
    expect(await storeFinalState(h.core, firstAttempt(v1.json.debateId), failed)).toBe(true);
    expect(await balance(user)).toBe(before);
    const retried = await h.request('POST', `/api/debates/${v1.json.debateId}/retry`, {
      cookie: user.cookie,
    });
    expect(retried.status, retried.text).toBe(200);
    expect(before - (await balance(user))).toBe(11);
  });

  it('refunds the credits of a debate that fails for its provider, once', async () => {
    const user = await registerUser(h);
    const res = await post(user, { question: QUESTION, mode: 'balanced' });
    expect(await balance(user)).toBe(7);
    const cost = { inputTokens: 0, outputTokens: 0, estimatedUsd: 0, credits: 3, llmCalls: 1 };
    const failed = { status: 'failed' as const, code: 'PROVIDER_ERROR', message: 'judge failed', cost };
    expect(await storeFinalState(h.core, firstAttempt(res.json.debateId), failed)).toBe(true);
    expect(await storeFinalState(h.core, firstAttempt(res.json.debateId), failed)).toBe(false);
    expect(await balance(user)).toBe(10);
    expect(await ledgerSum(user)).toBe(10);
    // The stored cost says what was charged in the end: nothing, whatever the engine reported.
    const [row] = await h.core.db.execute<{ cost: { credits: number } }>(
      'select cost from debates where id = ?',
      [res.json.debateId],
    );
    expect(row?.cost.credits).toBe(0);
  });

  it("stores in cost.credits what a completed debate was charged: its mode's credits", async () => {
    const user = await registerUser(h);
    const res = await post(user, { question: QUESTION, mode: 'balanced' });
    const completed = {
      status: 'completed' as const,
      verdict: {
        recommendation: 'PROCEED' as const,
        oneLiner: 'Go',
        confidence: 0.7,
        narrative: 'Because.',
        arguments: [],
        keyEvidence: [],
        decisionMatrix: [],
        nextSteps: [],
        revisitTriggers: [],
        missingAgents: [],
      },
      cost: { inputTokens: 10, outputTokens: 20, estimatedUsd: 0.0012, credits: 0, llmCalls: 6 },
      agentCount: 5,
      roundCount: 2,
      agentsUsed: ['simulated/sonnet'],
      domain: 'business' as const,
    };
    expect(await storeFinalState(h.core, firstAttempt(res.json.debateId), completed)).toBe(true);
    const read = await h.request<{ cost: { credits: number; estimatedUsd: number } }>(
      'GET',
      `/api/debates/${res.json.debateId}`,
      { cookie: user.cookie },
    );
    expect(read.json.cost).toMatchObject({ credits: 3, estimatedUsd: 0.0012 });
  });

  it('stores the early stop asked for, and refunds a stopped debate’s unspoken rounds once', async () => {
    const user = await registerUser(h);
    await setBalance(user, 20);
    const res = await post(user, {
      question: QUESTION,
      mode: 'thorough',
      stopWhenConverged: true,
      convergenceThreshold: 0.75,
      skipCache: true,
    });
    expect(res.status).toBe(201);
    const [stored] = await h.core.db.execute<{ early_stop_threshold: number }>(
      'select early_stop_threshold from debates where id = ?',
      [res.json.debateId],
    );
    expect(stored?.early_stop_threshold).toBe(0.75);
    expect(await balance(user)).toBe(12);
    const stoppedEarly = { afterRound: 1, plannedRounds: 3, convergence: 0.9, threshold: 0.75 };
    const completed = {
      status: 'completed' as const,
      verdict: {
        recommendation: 'PROCEED' as const,
        oneLiner: 'Go',
        confidence: 0.7,
        narrative: 'Because.',
        arguments: [],
        keyEvidence: [],
        decisionMatrix: [],
        nextSteps: [],
        revisitTriggers: [],
        missingAgents: [],
        convergence: [{ round: 1, score: 0.9 }],
        stoppedEarly,
      },
      cost: { inputTokens: 10, outputTokens: 20, estimatedUsd: 0, credits: 0, llmCalls: 9 },
      agentCount: 8,
      roundCount: 1,
      agentsUsed: ['simulated/sonnet'],
      domain: 'business' as const,
    };
    expect(await storeFinalState(h.core, firstAttempt(res.json.debateId), completed)).toBe(true);
    expect(await storeFinalState(h.core, firstAttempt(res.json.debateId), completed)).toBe(false);
    // Two of three rounds unspoken: ⌊8 × 2 / 3⌋ = 5 back, once.
    expect(await balance(user)).toBe(17);
    expect(await ledgerSum(user)).toBe(10 - 8 + 5); // signup, charge, refund (the balance was set by hand)
    const refunds = await h.core.db.execute<{ delta: number; note: string }>(
      `select delta, note from credit_ledger where debate_id = ? and reason = 'refund'`,
      [res.json.debateId],
    );
    expect(refunds).toEqual([{ delta: 5, note: 'debate stopped early: 2 of 3 rounds not spoken' }]);
    const read = await h.request<DebateObject>('GET', `/api/debates/${res.json.debateId}`, {
      cookie: user.cookie,
    });
    expect(read.json.cost?.credits).toBe(3);
    expect(read.json.verdict).toMatchObject({ stoppedEarly, convergence: [{ round: 1, score: 0.9 }] });
  });

  it('refuses an early-stop threshold outside 0.5–1', async () => {
    const user = await registerUser(h);
    for (const convergenceThreshold of [0.49, 1.01]) {
      const res = await post(user, { question: QUESTION, stopWhenConverged: true, convergenceThreshold });
      expect(res.status).toBe(400);
    }
  });
});
