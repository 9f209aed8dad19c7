import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { query } from '../db/kysely.ts';
import { type Database, openDatabase } from '../db/orm.ts';
import { entities } from '../entities.ts';
import { createTestCore, insertStoredDebate, type TestCore } from '../testing/index.ts';
import type { Embedder } from './embedder.ts';
import { unitVector } from './embedder.ts';
import { createSimilar } from './similar.ts';
import { detectVectorStorage } from './vector-storage.ts';

/**
 * The two ways embeddings are stored, behind one interface: pgvector on PGlite (which loads it), real[] on
 * this machine's PostgreSQL (Debian 12 has no pgvector package). The same data must give the same
 * neighbours, in the same order, with the same similarities, on both.
 */
const VECTORS: Record<string, number[]> = {
  'Open a Lisbon office?': [1, 0.2, 0, 0, 0.1, 0, 0, 0],
  'Open a Porto office?': [0.9, 0.3, 0.1, 0, 0, 0, 0, 0],
  'Hire a database engineer?': [0, 0, 1, 0.4, 0, 0, 0.2, 0],
  'Raise subscription prices?': [0, 0, 0, 0, 1, 0.5, 0, 0.3],
  'Close the Lisbon office?': [0.95, 0.1, 0, 0, 0, 0.2, 0, 0],
  'office abroad': [1, 0.25, 0.05, 0, 0.05, 0, 0, 0],
};

/** A lookup table standing in for an embedding model: these tests are about storage, not providers. */
const tableEmbedder: Embedder = {
  model: 'test:table',
  relatedAbove: 0.5,
  embed: async (text) => {
    const vector = VECTORS[text];
    if (!vector) throw new Error(`no test vector for ${text}`);
    return vector;
  },
};

const afterMicrotasks = () => new Promise((resolve) => setImmediate(resolve));

const dot = (a: number[], b: number[]) => a.reduce((sum, x, i) => sum + x * (b[i] ?? 0), 0);

type Setup = { db: Database; close: () => Promise<void> };

const databases: [string, 'pgvector' | 'real-array', () => Promise<Setup>][] = [
  [
    'PGlite',
    'pgvector',
    async () => {
      const dir = await mkdtemp(join(tmpdir(), 'verdict-similar-'));
      const db = await openDatabase({ kind: 'pglite', dataDir: dir }, { entities });
      return {
        db,
        close: async () => {
          await db.close();
          await rm(dir, { recursive: true, force: true });
        },
      };
    },
  ],
  [
    'PostgreSQL',
    'real-array',
    async () => {
      const test: TestCore = await createTestCore();
      return { db: test.core.db, close: test.cleanup };
    },
  ],
];

describe.each(databases)('similar debates stored on %s', (_name, expectedKind, open) => {
  let setup: Setup;
  const alice = randomUUID();
  const bob = randomUUID();
  const ids: Record<string, string> = {};

  const addUser = (id: string) =>
    setup.db.execute(`insert into users (id, email, name) values (?, ?, 'Test')`, [id, `${id}@example.com`]);
  const addEmbedded = async (
    owner: string,
    question: string,
    model = tableEmbedder.model,
    deleted = false,
  ) => {
    const id = await insertStoredDebate({ db: setup.db }, { ownerId: owner, question, deleted });
    const vector = unitVector(VECTORS[question] ?? []);
    // The same `?::real[]` the embedding worker writes with: pgvector's assignment cast stores it as vector.
    await setup.db.execute(
      'insert into debate_embeddings (debate_id, owner_id, model, embedding) values (?, ?, ?, ?::real[])',
      [id, owner, model, `{${vector.join(',')}}`],
    );
    return id;
  };

  beforeAll(async () => {
    setup = await open();
    await addUser(alice);
    await addUser(bob);
    for (const question of [
      'Open a Lisbon office?',
      'Open a Porto office?',
      'Hire a database engineer?',
      'Raise subscription prices?',
    ]) {
      ids[question] = await addEmbedded(alice, question);
    }
    ids.deleted = await addEmbedded(alice, 'Close the Lisbon office?', tableEmbedder.model, true);
    ids.otherModel = await addEmbedded(alice, 'Close the Lisbon office?', 'other:model');
    ids.bob = await addEmbedded(bob, 'Open a Lisbon office?');
  }, 60_000);
  afterAll(async () => {
    await setup?.close();
  });

  it(`stores embeddings as ${expectedKind}`, async () => {
    expect((await detectVectorStorage(setup.db)).kind).toBe(expectedKind);
    const similar = createSimilar({ db: setup.db, embedder: tableEmbedder });
    expect(await similar.storage()).toBe(expectedKind);
  });

  it("ranks only the caller's live debates of the same model, by cosine similarity", async () => {
    const similar = createSimilar({ db: setup.db, embedder: tableEmbedder });
    const { results } = await similar.find(alice, 'office abroad', 10);
    const query = unitVector(VECTORS['office abroad'] ?? []);
    const expected = Object.keys(ids)
      .filter((q) => q in VECTORS)
      .map((q) => ({ id: ids[q], similarity: dot(query, unitVector(VECTORS[q] ?? [])) }))
      .sort((a, b) => b.similarity - a.similarity);
    expect(results.map((r) => r.id)).toEqual(expected.map((e) => e.id));
    results.forEach((r, i) => {
      expect(r.similarity).toBeCloseTo(Math.max(0, expected[i]?.similarity ?? -1), 5);
    });
    expect(results.map((r) => r.id)).not.toContain(ids.bob);
    expect(results.map((r) => r.id)).not.toContain(ids.deleted);
    expect(results.map((r) => r.id)).not.toContain(ids.otherModel);
  });

  it("gives search only the debates above the model's related line, best first", async () => {
    const similar = createSimilar({ db: setup.db, embedder: tableEmbedder });
    const hits = await similar.hitsForSearch(alice, 'office abroad', 10);
    // Hiring and pricing score ~0.05 against "office abroad": noise for a model whose line is 0.5.
    expect(hits.map((hit) => hit.id)).toEqual([ids['Open a Lisbon office?'], ids['Open a Porto office?']]);
    const everything = await similar.find(alice, 'office abroad', 10);
    expect(everything.results.length).toBeGreaterThan(hits.length);
  });

  it('honours the limit and keeps users apart', async () => {
    const similar = createSimilar({ db: setup.db, embedder: tableEmbedder });
    const top = await similar.find(alice, 'office abroad', 2);
    expect(top.results.map((r) => r.id)).toEqual([ids['Open a Lisbon office?'], ids['Open a Porto office?']]);
    const bobs = await similar.find(bob, 'office abroad', 10);
    expect(bobs.results.map((r) => r.id)).toEqual([ids.bob]);
  });
});

describe('similar-debate lookup slots (PostgreSQL)', () => {
  let test: TestCore;
  let alice: string;
  let releaseLock: () => void = () => {};
  let lockHeld: Promise<void> | undefined;

  /** Holds an exclusive lock on the embeddings in another transaction: every lookup blocks on it. */
  const holdEmbeddingsLocked = async () => {
    let locked: () => void = () => {};
    const acquired = new Promise<void>((resolve) => {
      locked = resolve;
    });
    const released = new Promise<void>((resolve) => {
      releaseLock = resolve;
    });
    lockHeld = test.core.db.em().transactional(async (em) => {
      await sql`lock table debate_embeddings in access exclusive mode`.execute(query(em));
      locked();
      await released;
    });
    await acquired;
  };

  beforeAll(async () => {
    test = await createTestCore();
    alice = randomUUID();
    await test.core.db.execute(`insert into users (id, email, name) values (?, ?, 'Test')`, [
      alice,
      `${alice}@example.com`,
    ]);
    const id = await insertStoredDebate(
      { db: test.core.db },
      { ownerId: alice, question: 'Open a Lisbon office?' },
    );
    await test.core.db.execute(
      'insert into debate_embeddings (debate_id, owner_id, model, embedding) values (?, ?, ?, ?::real[])',
      [id, alice, tableEmbedder.model, `{${unitVector(VECTORS['Open a Lisbon office?'] ?? []).join(',')}}`],
    );
  }, 60_000);
  afterAll(async () => {
    releaseLock();
    await lockHeld;
    await test?.cleanup();
  });

  it('refuse a lookup past the line with 503 and Retry-After, and give search no semantic hits meanwhile', async () => {
    const similar = createSimilar({
      db: test.core.db,
      embedder: tableEmbedder,
      limits: {
        atOnce: 1,
        similarQueue: 0,
        searchBudgetMs: 60_000,
      },
    });
    await holdEmbeddingsLocked();
    const first = similar.find(alice, 'office abroad', 5);
    await afterMicrotasks(); // the test embedder answers at once: the lookup now holds the slot
    expect(await similar.hitsForSearch(alice, 'office abroad', 5)).toEqual([]);
    await expect(similar.find(alice, 'office abroad', 5)).rejects.toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      headers: { 'Retry-After': '5' },
    });
    releaseLock();
    await lockHeld;
    // The lookup that held the slot was only waiting: it answers once the lock is gone, and the slot frees.
    expect((await first).results).toHaveLength(1);
    expect(await similar.hitsForSearch(alice, 'office abroad', 5)).toHaveLength(1);
  });

  it("give search no semantic hits once its budget is spent, in the lookup or in the provider's answer", async () => {
    const similar = createSimilar({
      db: test.core.db,
      embedder: tableEmbedder,
      limits: {
        atOnce: 3,
        similarQueue: 0,
        searchBudgetMs: 300,
      },
    });
    await holdEmbeddingsLocked();
    const started = Date.now();
    // PostgreSQL stops the lookup waiting on the lock at the statement timeout: the budget's remainder.
    expect(await similar.hitsForSearch(alice, 'office abroad', 5)).toEqual([]);
    expect(Date.now() - started).toBeLessThan(5_000);
    releaseLock();
    await lockHeld;
    expect(await similar.hitsForSearch(alice, 'office abroad', 5)).toHaveLength(1);

    const slowEmbedder: Embedder = {
      ...tableEmbedder,
      embed: (text, signal) =>
        new Promise((resolve, reject) => {
          const answer = setTimeout(() => resolve(VECTORS[text] ?? []), 10_000);
          signal?.addEventListener('abort', () => {
            clearTimeout(answer);
            reject(signal.reason);
          });
        }),
    };
    const slow = createSimilar({
      db: test.core.db,
      embedder: slowEmbedder,
      limits: {
        atOnce: 3,
        similarQueue: 0,
        searchBudgetMs: 300,
      },
    });
    const before = Date.now();
    expect(await slow.hitsForSearch(alice, 'office abroad', 5)).toEqual([]);
    expect(Date.now() - before).toBeLessThan(5_000);
  });

  it('queue lookups within the line and answer each in turn', async () => {
    const similar = createSimilar({
      db: test.core.db,
      embedder: tableEmbedder,
      limits: {
        atOnce: 1,
        similarQueue: 2,
        searchBudgetMs: 60_000,
      },
    });
    await holdEmbeddingsLocked();
    const lookups = [1, 2, 3].map(() => similar.find(alice, 'office abroad', 5));
    await afterMicrotasks();
    await expect(similar.find(alice, 'office abroad', 5)).rejects.toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
    });
    releaseLock();
    await lockHeld;
    for (const answer of await Promise.all(lookups)) expect(answer.results).toHaveLength(1);
  });
});
