import { type DebateTables, query } from '@verdict/core';
import { createTestCore, debateReaching, type TestCore } from '@verdict/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { positionLine } from '../machine/position.ts';
import { debaterTurnOf, isClassification } from '../testing/debater-requests.ts';
import { type FakeLlmServer, type FakeRequest, startFakeLlmServer } from '../testing/fake-llm-server.ts';
import { judgeVerdictJson } from '../testing/judge-verdict.ts';
import { type EngineNode, engineNodeFor } from './engine-node.ts';

const isJudge = (request: Pick<FakeRequest, 'body'>) =>
  JSON.stringify(request.body).includes('You are the judge');
const textOf = (request: Pick<FakeRequest, 'body'>) => JSON.stringify(request.body);

// What the providers are sent, as the fake LLM server records it: a debate on two providers' models, each
// debater's turn carrying a marker of its own and a POSITION line.
describe('blind first round and anonymous judge, as the providers receive them', () => {
  let fake: FakeLlmServer;
  let test: TestCore;
  let node: EngineNode;

  beforeAll(async () => {
    fake = await startFakeLlmServer((request) => {
      if (isJudge(request)) return { text: judgeVerdictJson() };
      const turn = debaterTurnOf(request);
      if (!turn) return { text: 'business' }; // the classifier
      const marker = `marker-${turn.agent.replace(/\W/g, '')}-r${turn.round}`;
      const position = { recommendation: 'PROCEED', stance: 'for', confidence: 0.6 } as const;
      return { text: `I argue ${marker}.\n${positionLine(position)}` };
    });
    test = await createTestCore({
      OPENAI_API_KEY: 'sk-test-blind',
      OPENAI_BASE_URL: fake.baseUrls.openai,
      ANTHROPIC_API_KEY: 'sk-ant-test-blind',
      ANTHROPIC_BASE_URL: fake.baseUrls.anthropic,
    });
    node = engineNodeFor(test.core);
    node.start();
  });
  afterAll(async () => {
    await node?.stop();
    await test?.cleanup();
    await fake?.close();
  });

  it('shows no agent another’s opening in round one, and the judge no model or provider name', async () => {
    const owner = await test.core.accounts.createUser({ email: 'blind@example.com', name: 'Blind' });
    await test.core.billing.grantCredits(owner.id, 20);
    const question = 'Should the team move its weekly planning to Thursdays?';
    const created = await test.core.debates.create({
      ownerId: owner.id,
      route: 'api',
      question,
      context: null,
      mode: 'balanced',
      agents: 4,
      rounds: 2,
      preset: null,
      routing: null,
      compare: false,
      skipCache: true,
      providerKeys: null,
      idempotencyKey: null,
      fingerprint: question,
    });
    expect((await debateReaching(test.core, created.debateId))?.status).toBe('completed');

    const sent = fake.requests.filter((request) => !isClassification(request));
    const debaters = sent.filter((request) => debaterTurnOf(request) !== null);
    expect(debaters).toHaveLength(8);
    const models = new Set(debaters.map((request) => request.model));
    const protocols = new Set(debaters.map((request) => request.protocol));
    expect(protocols.size).toBe(2); // the panel really mixes providers
    for (const request of debaters.filter((r) => debaterTurnOf(r)?.round === 1)) {
      expect(textOf(request)).not.toContain('marker-');
    }
    for (const request of debaters.filter((r) => debaterTurnOf(r)?.round === 2)) {
      expect(textOf(request)).toMatch(/marker-\w+-r1/);
    }

    const judge = sent.find(isJudge);
    expect(judge).toBeDefined();
    // The request's own model field names the judge's model; what it is asked must name none.
    const { model: _model, ...asked } = (judge?.body ?? {}) as Record<string, unknown>;
    const judgeText = JSON.stringify(asked).toLowerCase();
    expect(judgeText).toContain('marker-skeptic-r2'); // it reads every argument…
    expect(judgeText).toContain('[position: proceed, for, confidence 0.6]');
    for (const model of models) expect(judgeText).not.toContain(model.toLowerCase()); // …by seat alone
    for (const brand of ['openai', 'anthropic', 'google', 'gpt', 'claude', 'gemini']) {
      expect(judgeText).not.toContain(brand);
    }

    // Each stored turn keeps its position beside its text.
    const turns = await query<DebateTables>(test.core.db.em())
      .selectFrom('debate_turns')
      .select(['content', 'position'])
      .where('debate_id', '=', created.debateId)
      .execute();
    expect(turns).toHaveLength(8);
    for (const turn of turns) {
      expect(turn.content).not.toContain('POSITION');
      expect(turn.position).toEqual({ recommendation: 'PROCEED', stance: 'for', confidence: 0.6 });
    }
  });
});
