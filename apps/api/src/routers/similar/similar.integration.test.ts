import type { CreatedDebate, SimilarDebates } from '@verdict/contracts';
import { embedCompletedDebates } from '@verdict/core';
import { debateReaching, eventually } from '@verdict/core/testing';
import { createEmbedder, createEngineNode, type EngineNode } from '@verdict/engine';
import { type FakeLlmServer, startFakeLlmServer } from '@verdict/engine/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectError,
  type Harness,
  registerUser,
  startServer,
  type TestUser,
} from '../../testing/http-harness.ts';

const LISBON = 'Should the company open a second office in Lisbon next spring';
const HIRING = 'Should the team hire a senior database engineer this quarter';
const PRICING = 'Should the product raise its subscription price for new customers';

describe('similar debates over embeddings', () => {
  let fake: FakeLlmServer;
  let h: Harness;
  let engine: EngineNode;
  let alice: TestUser;
  let bob: TestUser;
  const ids: Record<string, string> = {};

  const create = async (user: TestUser, question: string) => {
    const res = await h.request<CreatedDebate>('POST', '/api/debates', {
      cookie: user.cookie,
      body: { question, skipCache: true },
    });
    expect(res.status, res.text).toBe(201);
    expect((await debateReaching(h.core, res.json.debateId))?.status).toBe('completed');
    return res.json.debateId;
  };
  const similar = (user: TestUser, query: string) =>
    h.request<SimilarDebates>('GET', `/api/similar${query}`, { cookie: user.cookie });
  const embeddings = () =>
    h.core.db.execute<{ debate_id: string; model: string; embedding: number[] }>(
      'select debate_id, model, embedding from debate_embeddings',
    );

  beforeAll(async () => {
    fake = await startFakeLlmServer();
    const embedder = () =>
      createEmbedder({
        embeddings: 'openai',
        keys: { openai: 'sk-test-embeddings' },
        baseUrls: { openai: fake.baseUrls.openai },
      });
    h = await startServer({ env: { CONCURRENT_DEBATES: '20' }, coreOptions: { embedder: embedder() } });
    // Debaters on the simulated model; embeddings through the OpenAI SDK against the fake server.
    engine = createEngineNode({
      db: h.core.db,
      bus: h.core.bus,
      clock: h.core.clock,
      slots: 4,
      providerKeys: {},
      simulated: { firstTokenMs: 1 },
      embedder: embedder(),
      embedIntervalMs: 100,
    });
    engine.start();
    alice = await registerUser(h);
    bob = await registerUser(h);
    for (const user of [alice, bob]) await h.core.billing.grantCredits(user.session.user.id, 100);
    ids.lisbon = await create(alice, LISBON);
    ids.hiring = await create(alice, HIRING);
    ids.pricing = await create(alice, PRICING);
    ids.bobLisbon = await create(bob, LISBON);
    await eventually(embeddings, (rows) => rows.length === 4);
  }, 60_000);
  afterAll(async () => {
    await engine.stop();
    await h.close();
    await fake.close();
  });

  it('embeds each completed debate once, unit length, with the model named', async () => {
    const rows = await embeddings();
    expect(rows.map((r) => r.debate_id).sort()).toEqual(Object.values(ids).sort());
    for (const row of rows) {
      expect(row.model).toBe('openai:text-embedding-3-small');
      const norm = Math.sqrt(row.embedding.reduce((sum, x) => sum + x * x, 0));
      expect(norm).toBeCloseTo(1, 4);
    }
    // Another pass finds nothing left to do: every debate.completed row is stamped.
    const embedder = createEmbedder({
      embeddings: 'openai',
      keys: { openai: 'sk-test' },
      baseUrls: { openai: fake.baseUrls.openai },
    });
    expect(await embedCompletedDebates(h.core.db, embedder!, h.core.clock, 50)).toEqual({
      embedded: 0,
      failed: 0,
      abandoned: 0,
    });
  });

  it("finds the caller's closest debate first, only among the caller's own", async () => {
    const res = await similar(alice, `?q=${encodeURIComponent('open an office in Lisbon')}`);
    expect(res.status, res.text).toBe(200);
    const [best, ...rest] = res.json.results;
    expect(best?.id).toBe(ids.lisbon);
    expect(best?.similarity).toBeGreaterThan(rest[0]?.similarity ?? 0);
    expect(best).toMatchObject({ question: LISBON, status: 'completed', recommendation: expect.any(String) });
    expect(res.json.results.map((r) => r.id)).not.toContain(ids.bobLisbon);
    for (const result of res.json.results) {
      expect(result.similarity).toBeGreaterThanOrEqual(0);
      expect(result.similarity).toBeLessThanOrEqual(1);
    }
  });

  it('gives search its semantic hits: after the keyword results, uncounted, with no relevance score', async () => {
    // "expansion" is in no question, so neither the text nor full-text matching finds the Lisbon debate; the
    // other words are the Lisbon debate's, enough of them for the fake embedder to relate the two well above
    // the model's threshold whatever the simulated verdict's one-liner adds to the embedded text.
    const res = await h.request<{
      results: { id: string; relevanceScore: number | null }[];
      total: number;
    }>('GET', `/api/search?q=${encodeURIComponent('Lisbon office expansion next spring')}`, {
      cookie: alice.cookie,
    });
    expect(res.status, res.text).toBe(200);
    expect(res.json.total).toBe(0);
    expect(res.json.results[0]).toEqual(expect.objectContaining({ id: ids.lisbon, relevanceScore: null }));
    expect(res.json.results.map((r) => r.id)).not.toContain(ids.bobLisbon);
  });

  it('leaves out deleted debates', async () => {
    const gone = await create(alice, 'Should the company open a third office in Lisbon as well');
    await eventually(embeddings, (rows) => rows.some((r) => r.debate_id === gone));
    expect((await similar(alice, '?q=office%20Lisbon')).json.results.map((r) => r.id)).toContain(gone);
    await h.request('DELETE', `/api/debates/${gone}`, { cookie: alice.cookie });
    expect((await similar(alice, '?q=office%20Lisbon')).json.results.map((r) => r.id)).not.toContain(gone);
  });

  it('needs q (MISSING_QUERY) and clamps limit to 1–20', async () => {
    expectError(await similar(alice, ''), 'MISSING_QUERY');
    expectError(await similar(alice, '?q=%20%20'), 'MISSING_QUERY');
    expect((await similar(alice, '?q=office&limit=0')).json.results).toHaveLength(1);
    expect((await similar(alice, '?q=office&limit=500')).json.results.length).toBeLessThanOrEqual(20);
    expect((await similar(alice, '?q=office')).json.results.length).toBeLessThanOrEqual(5);
    expectError(await similar(alice, '?q=office&limit=some'), 'VALIDATION_ERROR');
    expectError(await h.request('GET', '/api/similar?q=office'), 'UNAUTHORIZED');
  });

  it('answers 500 SIMILAR_SEARCH_FAILED when the embedding provider fails, leaking nothing', async () => {
    fake.setScript([{ status: 500, message: 'provider exploded' }]);
    try {
      const res = await similar(alice, '?q=office');
      expectError(res, 'SIMILAR_SEARCH_FAILED');
      expect(res.text).not.toContain('provider exploded');
    } finally {
      fake.setScript([{ text: 'ok' }]);
    }
  });

  it('a debate whose embedding failed is embedded on a pass after its back-off', async () => {
    await engine.stop();
    const id = await (async () => {
      engine.start();
      fake.setScript([{ status: 503, message: 'busy' }]);
      const created = await h.request<CreatedDebate>('POST', '/api/debates', {
        cookie: alice.cookie,
        body: { question: 'Should the cafeteria serve breakfast every day', skipCache: true },
      });
      await debateReaching(h.core, created.json.debateId);
      await engine.stop();
      return created.json.debateId;
    })();
    expect((await embeddings()).some((r) => r.debate_id === id)).toBe(false);
    fake.setScript([{ text: 'ok' }]);
    const embedder = createEmbedder({
      embeddings: 'openai',
      keys: { openai: 'sk-test' },
      baseUrls: { openai: fake.baseUrls.openai },
    });
    // Due again 30 s after the failed call (a pass before then leaves it alone).
    const later = { now: () => Date.now() + 30_000 };
    const pass = await embedCompletedDebates(h.core.db, embedder!, later, 50);
    expect(pass.embedded).toBeGreaterThanOrEqual(1);
    expect((await embeddings()).some((r) => r.debate_id === id)).toBe(true);
    engine.start();
  });
});

describe('similar debates without an embedding provider', () => {
  it('answers 200 with no results', async () => {
    const h = await startServer();
    try {
      const user = await registerUser(h);
      const res = await h.request<SimilarDebates>('GET', '/api/similar?q=anything', { cookie: user.cookie });
      expect(res.status, res.text).toBe(200);
      expect(res.json).toEqual({ results: [] });
    } finally {
      await h.close();
    }
  });
});
