import { setTimeout as sleep } from 'node:timers/promises';
import { MODEL_TABLE } from '@verdict/core';
import { createTestCore, debateReaching, eventually, type TestCore } from '@verdict/core/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type FakeLlmServer, startFakeLlmServer } from '../testing/fake-llm-server.ts';
import { judgeVerdictJson } from '../testing/judge-verdict.ts';
import { type EngineNode, engineNodeFor } from './engine-node.ts';

const JUDGE = 'gateway-judge-large';
const DEBATER = 'gateway-debater-medium';

// The operator's provider settings taken from the environment as a process takes them (loadConfig, the
// core, engineNodeFor), down to what the OpenAI SDK sends to its (fake) server.
describe("an operator's model and embedding settings, from the environment to the provider", () => {
  let fake: FakeLlmServer;
  let running: { test: TestCore; node: EngineNode } | null = null;

  const start = async (env: Record<string, string>) => {
    const test = await createTestCore({
      OPENAI_API_KEY: 'sk-test-gateway',
      OPENAI_BASE_URL: fake.baseUrls.openai,
      ...env,
    });
    const node = engineNodeFor(test.core);
    node.start();
    running = { test, node };
    return test.core;
  };

  /** A debate created as the API creates one, run to its end: its announced judge and what was sent. */
  const debate = async (core: TestCore['core']) => {
    const owner = await core.accounts.createUser({ email: `gw-${Date.now()}@example.com`, name: 'Gateway' });
    // The free plan, paying with credits: its create response names the judge (judgeModel).
    await core.billing.grantCredits(owner.id, 20);
    const from = fake.requests.length;
    const question = 'Should the team route every model call through the company gateway?';
    const created = await core.debates.create({
      ownerId: owner.id,
      route: 'api',
      question,
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
      fingerprint: question,
    });
    expect((await debateReaching(core, created.debateId))?.status).toBe('completed');
    return { judgeModel: created.judgeModel, sent: () => fake.requests.slice(from) };
  };

  beforeAll(async () => {
    // Whichever model judges gets a verdict, so a debate completes whether or not the override took.
    const judges = new Set([JUDGE, MODEL_TABLE.opus.openai]);
    fake = await startFakeLlmServer((request) =>
      judges.has(request.model) ? { text: judgeVerdictJson() } : { text: 'A point worth weighing.' },
    );
  });
  const stop = async () => {
    await running?.node.stop();
    await running?.test.cleanup();
    running = null;
  };
  afterEach(stop);
  afterAll(async () => {
    await fake.close();
  });

  it('sends the model configured for a tier in place of the provider table’s, and announces it', async () => {
    const core = await start({ OPENAI_MODEL_OPUS: JUDGE, OPENAI_MODEL_SONNET: DEBATER });
    const { judgeModel, sent } = await debate(core);
    expect(judgeModel).toBe(`openai:${JUDGE}`);
    const models = sent()
      .filter((request) => request.path.endsWith('/chat/completions'))
      .map((request) => request.model);
    expect(models.filter((model) => model === DEBATER)).toHaveLength(3);
    expect(models).toContain(JUDGE);
    // The tier left alone keeps the table's model (the classifier runs on haiku).
    expect(models).toContain(MODEL_TABLE.haiku.openai);
    expect(models).not.toContain(MODEL_TABLE.sonnet.openai);
    expect(models).not.toContain(MODEL_TABLE.opus.openai);
  });

  it('embeds nothing with an OpenAI key set until EMBEDDINGS turns embeddings on', async () => {
    const embeddingCalls = () => fake.requests.filter((request) => request.path.endsWith('/embeddings'));
    const off = await start({ OPENAI_MODEL_OPUS: JUDGE });
    await debate(off);
    await sleep(2500); // the embedding worker looks for completed debates every second
    expect(embeddingCalls()).toEqual([]);
    await stop();

    const on = await start({ OPENAI_MODEL_OPUS: JUDGE, EMBEDDINGS: 'openai' });
    await debate(on);
    const calls = await eventually(embeddingCalls, (found) => found.length > 0);
    expect(calls[0]?.model).toBe('text-embedding-3-small');
  });
});
