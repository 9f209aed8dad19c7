import { eventually } from '@verdict/core/testing';
import {
  type FakeLlmServer,
  isClassification,
  judgeVerdictJson,
  startFakeLlmServer,
} from '@verdict/engine/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, apiClient, expectBody, registerUser } from './support/api-client.ts';
import { MODES, type ProUser, type Stack, signUpPro, startStack } from './support/stack.ts';

/** Dollars as whole nanodollars: the unit costs are recorded and summed in. */
const nano = (usd: number) => Math.round(usd * 1e9);

// Cost before and after, over HTTP through the generated client, in each mode: the estimate of a debate on
// the service's (Anthropic) key, which creates and charges nothing; the create charging what it said; the
// debate run on a fake LLM server whose token counts are known; and the cost breakdown, whose calls add up to
// the debate's cost exactly and fall within the estimate's range.
describe.each(MODES)('cost before and after (%s)', (mode) => {
  let llm: FakeLlmServer;
  let stack: Stack;
  let alice: ProUser;
  let bob: ProUser;

  const balanceOf = async (client: ApiClient) =>
    expectBody(await client.GET('/api/billing/balance'), 200).balance;
  const debatesOf = async (client: ApiClient) => expectBody(await client.GET('/api/debates'), 200).total;

  beforeAll(async () => {
    llm = await startFakeLlmServer((request) =>
      request.model.includes('opus')
        ? { text: judgeVerdictJson({ recommendation: 'PROCEED', confidence: 0.7 }) }
        : isClassification(request)
          ? { text: 'technology' }
          : { text: 'A short and concrete argument about the decision at hand.' },
    );
    stack = await startStack(mode, 'cost', {
      ANTHROPIC_API_KEY: 'sk-ant-fake-cost',
      ANTHROPIC_BASE_URL: llm.baseUrls.anthropic,
    });
    [alice, bob] = await Promise.all([signUpPro(stack, 'cost-alice'), signUpPro(stack, 'cost-bob')]);
    await Promise.all([stack.setRateLimit(alice.email, 1000), stack.setRateLimit(bob.email, 1000)]);
  });
  afterAll(async () => {
    await stack?.stop();
    await llm?.close();
  });

  it('estimates, charges what it estimated, and records a cost that adds up and lies in the range', async () => {
    const body = {
      question: 'Should our support desk move to a four-day week this spring?',
      context: 'Forty agents in two time zones.',
      mode: 'balanced' as const,
      skipCache: true,
    };
    const before = await balanceOf(alice.client);
    const estimate = expectBody(
      await alice.client.POST('/api/debates/estimate', {
        body,
        headers: { 'Idempotency-Key': 'cost-e2e-key' },
      }),
      200,
    );
    expect(estimate).toMatchObject({
      mode: 'balanced',
      agents: 5,
      rounds: 2,
      credits: 3,
      charge: 3,
      fundingSource: 'user_credits',
      refusal: null,
      cached: false,
      simulated: false,
    });
    expect(estimate.models.map((m) => [m.model, m.roles, m.priced])).toEqual([
      ['anthropic:claude-sonnet-5-5', ['debater'], true],
      ['anthropic:claude-opus-5-5', ['judge'], true],
      ['anthropic:claude-haiku-5-5', ['classifier'], true],
    ]);
    expect(estimate.usd.low).toBeGreaterThan(0);
    // Nothing made, nothing charged, nothing asked of a provider, and the Idempotency-Key still free.
    expect(await balanceOf(alice.client)).toBe(before);
    expect(await debatesOf(alice.client)).toBe(0);
    expect(llm.count()).toBe(0);

    const created = expectBody(
      await alice.client.POST('/api/debates', {
        body,
        params: { header: { 'Idempotency-Key': 'cost-e2e-key' } },
      }),
      201,
    );
    expect(await balanceOf(alice.client)).toBe(before - estimate.charge);
    const debate = expectBody(
      await eventually(
        () => alice.client.GET('/api/debates/{id}', { params: { path: { id: created.debateId } } }),
        (res) => res.data?.status === 'completed' || res.data?.status === 'failed',
        30_000,
      ),
      200,
    );
    expect(debate.status).toBe('completed');
    const cost = debate.cost;
    if (!cost) throw new Error('a completed debate has its cost');
    expect(cost.credits).toBe(estimate.charge);

    const breakdown = expectBody(
      await alice.client.GET('/api/debates/{id}/cost', { params: { path: { id: created.debateId } } }),
      200,
    );
    // Every call, with the tokens the provider reported (the fake server counts a request body's
    // characters / 4 in, words out); the judge answered right the first time.
    expect(breakdown.calls.map((c) => c.kind)).toEqual([...Array(10).fill('turn'), 'judge', 'classifier']);
    expect(breakdown.calls).toHaveLength(llm.count('anthropic'));
    const reportedIn = llm.requests.reduce(
      (sum, r) => sum + Math.max(1, Math.ceil(JSON.stringify(r.body).length / 4)),
      0,
    );
    expect(breakdown.inputTokens).toBe(reportedIn);
    expect(breakdown.inputTokens).toBe(cost.inputTokens);
    expect(breakdown.outputTokens).toBe(cost.outputTokens);
    expect(breakdown.calls.length).toBe(cost.llmCalls);
    // The sum, exact: the calls' costs in whole nanodollars add up to the debate's cost, to the nanodollar.
    const sum = breakdown.calls.reduce((total, c) => total + nano(c.costUsd ?? Number.NaN), 0);
    expect(sum).toBe(nano(cost.estimatedUsd));
    expect(breakdown.totalUsd).toBe(cost.estimatedUsd);
    expect(breakdown.byModel.reduce((total, m) => total + nano(m.costUsd), 0)).toBe(sum);
    expect(breakdown.credits).toBe(cost.credits);

    // The estimate's range holds what it cost, in total and per model.
    expect(cost.estimatedUsd).toBeGreaterThanOrEqual(estimate.usd.low);
    expect(cost.estimatedUsd).toBeLessThanOrEqual(estimate.usd.high);
    expect(cost.inputTokens).toBeGreaterThanOrEqual(estimate.inputTokens.low);
    expect(cost.inputTokens).toBeLessThanOrEqual(estimate.inputTokens.high);
    for (const used of breakdown.byModel) {
      const expected = estimate.models.find((m) => m.model === used.model);
      expect(expected, used.model).toBeDefined();
      expect(used.costUsd).toBeGreaterThanOrEqual(expected?.usd.low ?? Number.NaN);
      expect(used.costUsd).toBeLessThanOrEqual(expected?.usd.high ?? Number.NaN);
      expect(used.calls).toBeGreaterThanOrEqual(expected?.calls.low ?? Number.NaN);
      expect(used.calls).toBeLessThanOrEqual(expected?.calls.high ?? Number.NaN);
    }

    // The shared transcript shows each turn's tokens and cost once the owner chooses to show the cost.
    const path = { params: { path: { debateId: created.debateId } } };
    const link = expectBody(await alice.client.POST('/api/share/{debateId}', path), 200);
    const anonymous = apiClient(stack.baseUrl);
    const readShared = async () =>
      expectBody(
        await anonymous.GET('/api/public/debates/{token}', { params: { path: { token: link.token } } }),
        200,
      );
    expect((await readShared()).transcript.every((entry) => entry.usage === null)).toBe(true);
    expectBody(
      await alice.client.PATCH('/api/share/{debateId}', { ...path, body: { settings: { showCost: true } } }),
      200,
    );
    const shared = await readShared();
    expect(shared.transcript).toHaveLength(10);
    for (const entry of shared.transcript) {
      const turn = breakdown.calls.find((c) => c.round === entry.round && c.agent === entry.agent);
      expect(entry.usage).toEqual({
        inputTokens: turn?.inputTokens,
        outputTokens: turn?.outputTokens,
        costUsd: turn?.costUsd,
      });
    }

    // Read as the debate is: another account's private debate is not found.
    const hidden = await bob.client.GET('/api/debates/{id}/cost', {
      params: { path: { id: created.debateId } },
    });
    expect(hidden.response.status).toBe(404);
  });

  it('estimates on /v1 with the body of /v1/verdicts, and reports a shortfall instead of refusing', async () => {
    const made = await alice.client.POST('/api/keys', { body: { name: 'cost-v1' } });
    const keyed = apiClient(stack.baseUrl, { key: made.data?.key as string });
    const comparison = expectBody(
      await keyed.POST('/v1/verdicts/estimate', {
        body: { question: 'Which CRM should we pick?', options: ['Alpha', 'Beta', 'Gamma'] },
      }),
      200,
    );
    expect(comparison).toMatchObject({
      mode: 'balanced',
      credits: 5,
      charge: 5,
      fundingSource: 'user_credits',
    });

    // An account on a paid plan with 10 credits spends 3 on fast debates: 7 do not pay for a thorough one (8).
    const user = await registerUser(stack.baseUrl, 'cost-short');
    await Promise.all([stack.setPlan(user.email, 'pro'), stack.setRateLimit(user.email, 1000)]);
    const carol = apiClient(stack.baseUrl, { cookie: user.cookie });
    for (const n of [1, 2, 3]) {
      expectBody(
        await carol.POST('/api/debates', {
          body: { question: `Should we run quick check number ${n}?`, mode: 'fast', skipCache: true },
        }),
        201,
      );
    }
    expect(await balanceOf(carol)).toBe(7);
    const pricey = {
      question: 'Should we rebuild the billing system from scratch?',
      mode: 'thorough' as const,
    };
    const short = expectBody(await carol.POST('/api/debates/estimate', { body: pricey }), 200);
    expect(short).toMatchObject({
      credits: 8,
      charge: 0,
      fundingSource: null,
      refusal: { code: 'QUOTA_EXCEEDED' },
    });
    const refused = await carol.POST('/api/debates', { body: pricey });
    expect(refused.response.status).toBe(429);
    expect(refused.error?.error.code).toBe('QUOTA_EXCEEDED');

    // The create's validation: the same body schema, the same 400.
    const invalid = await alice.client.POST('/api/debates/estimate', {
      body: { question: 'short', agentCount: 9 } as never,
    });
    expect(invalid.response.status).toBe(400);
    expect(invalid.error?.error.code).toBe('VALIDATION_ERROR');
  });
});
