import { eventually } from '@verdict/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, apiClient, expectBody } from './support/api-client.ts';
import { readSse } from './support/sse.ts';
import { MODES, type ProUser, type Stack, signUpPro, startStack } from './support/stack.ts';

// On the simulated model this question's three-seat panel splits in round 1 (0.66) and agrees in round 2
// (1.0), so with early stop at the default threshold a three-round debate stops after round 2.
const QUESTION = 'Should we move the support desk to a four-day week this year?';

// Early stop over HTTP through the generated client, in each mode: an early-stopped debate skips its last
// round, is charged less (the ledger refunds the unspoken round's share), and says why.
describe.each(MODES)('convergence and early stop end to end (%s)', (mode) => {
  let stack: Stack;
  let user: ProUser;
  let key: string;
  let keyed: ApiClient;

  const balance = async () => expectBody(await user.client.GET('/api/billing/balance'), 200).balance;
  const completed = async (id: string) =>
    expectBody(
      await eventually(
        () => user.client.GET('/api/debates/{id}', { params: { path: { id } } }),
        (res) => res.data?.status === 'completed' || res.data?.status === 'failed',
        30_000,
      ),
      200,
    );
  const thorough = (stopWhenConverged: boolean) =>
    user.client.POST('/api/debates', {
      body: {
        question: QUESTION,
        mode: 'thorough',
        agentCount: 3,
        maxRounds: 3,
        skipCache: true,
        ...(stopWhenConverged ? { stopWhenConverged: true } : {}),
      },
    });

  beforeAll(async () => {
    stack = await startStack(mode, 'convergence');
    user = await signUpPro(stack, 'converger');
    key = expectBody(await user.client.POST('/api/keys', { body: { name: 'converger' } }), 201).key;
    keyed = apiClient(stack.baseUrl, { key });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('stops once the positions converge, judges at once, refunds the unspoken round and says why', async () => {
    const before = await balance();
    const created = expectBody(await thorough(true), 201);
    const debate = await completed(created.debateId);
    expect(debate.status).toBe('completed');
    expect(debate.roundCount).toBe(2);
    expect(debate.verdict?.stoppedEarly).toEqual({
      afterRound: 2,
      plannedRounds: 3,
      convergence: 1,
      threshold: 0.8,
    });
    expect(debate.verdict?.convergence?.map((point) => point.round)).toEqual([1, 2]);
    expect(debate.verdict?.convergence?.[0]?.score).toBeLessThan(0.8);
    // Thorough costs 8; one of its three rounds unspoken gives back ⌊8 / 3⌋ = 2.
    expect(debate.cost?.credits).toBe(6);
    expect(await balance()).toBe(before - 6);

    const stream = await readSse(`${stack.baseUrl}/api/debates/${created.debateId}/stream`, {
      cookie: user.cookie,
    });
    const converged = stream.messages.filter((m) => m.event === 'round.converged').map((m) => m.data);
    expect(converged).toEqual([
      { round: 1, score: debate.verdict?.convergence?.[0]?.score, threshold: 0.8, stopping: false },
      { round: 2, score: 1, threshold: 0.8, stopping: true },
    ]);
    expect(stream.messages.some((m) => m.event === 'round.started' && m.data.round === 3)).toBe(false);
    // Each turn states its position beside its text, which no longer carries the POSITION line.
    const turns = stream.messages.filter((m) => m.event === 'argument' || m.event === 'rebuttal');
    expect(turns).toHaveLength(6);
    for (const turn of turns) {
      expect(turn.data.content).not.toContain('POSITION:');
      expect(turn.data.position).toMatchObject({
        recommendation: expect.any(String),
        stance: expect.any(String),
      });
    }
  });

  it('runs and charges every round of the same debate without early stop', async () => {
    const before = await balance();
    const created = expectBody(await thorough(false), 201);
    const debate = await completed(created.debateId);
    expect(debate.roundCount).toBe(3);
    expect(debate.verdict?.stoppedEarly).toBeUndefined();
    expect(debate.verdict?.convergence).toHaveLength(3);
    expect(debate.cost?.credits).toBe(8);
    expect(await balance()).toBe(before - 8);
  });

  it('takes the early-stop fields on /v1 too, and has a comparison’s agents rank its options', async () => {
    const created = expectBody(
      await keyed.POST('/v1/verdicts', {
        body: {
          question: 'Which office should the support desk move to next year?',
          mode: 'fast',
          options: ['Lisbon', 'Porto', 'Braga'],
          stopWhenConverged: true,
          convergenceThreshold: 0.9,
        },
      }),
      201,
    );
    const detail = expectBody(
      await eventually(
        () => keyed.GET('/v1/verdicts/{id}', { params: { path: { id: created.debateId } } }),
        (res) => res.data?.debate.status === 'completed',
        30_000,
      ),
      200,
    );
    // Fast is one round: nothing left to skip, but the round is still measured.
    expect(detail.verdict?.convergence?.map((point) => point.round)).toEqual([1]);
    expect(detail.verdict?.stoppedEarly).toBeUndefined();
    const stream = await readSse(`${stack.baseUrl}/v1/verdicts/${created.debateId}/stream`, {
      authorization: `Bearer ${key}`,
    });
    const arguments_ = stream.messages.filter((m) => m.event === 'argument');
    expect(arguments_).toHaveLength(3);
    for (const turn of arguments_) {
      expect([...((turn.data.position as { ranking: string[] }).ranking ?? [])].sort()).toEqual([
        'A',
        'B',
        'C',
      ]);
    }
  });

  it('refuses a threshold below one half', async () => {
    const refused = await user.client.POST('/api/debates', {
      body: { question: QUESTION, stopWhenConverged: true, convergenceThreshold: 0.3 },
    });
    expect(refused.response.status).toBe(400);
  });
});
