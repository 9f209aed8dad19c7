import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { query } from '../db/kysely.ts';
import { createTestCore, insertStoredDebate, type TestCore } from '../testing/index.ts';
import {
  EMBED_CLAIM_MS,
  EMBED_MAX_ATTEMPTS,
  type EmbedFailure,
  embedCompletedDebates,
} from './embed-completed.ts';
import type { Embedder } from './embedder.ts';
import { dropStaleEmbeddings, queueEmbedding } from './embedding-queue.ts';
import type { SimilarTables } from './tables.ts';

/**
 * The embedding worker's claims on its queue: what it holds while a provider answers (nothing anyone waits
 * on), how a failed call comes due again, when it gives up, and what a dead node leaves.
 * The embedder is a stand-in for the port (the provider adapters are tested against the fake LLM server
 * elsewhere): these tests are about the claims.
 */
describe('embedding completed debates', () => {
  let t: TestCore;
  let owner: string;
  let now: number;
  const clock = { now: () => now };

  /** An embedder whose calls wait until the test answers them, counted. */
  const heldEmbedder = () => {
    const pending: { resolve: (v: number[]) => void; reject: (e: Error) => void }[] = [];
    const embedder: Embedder = {
      model: 'test:held',
      relatedAbove: 0,
      embed: () => new Promise((resolve, reject) => pending.push({ resolve, reject })),
    };
    return { embedder, pending };
  };
  const failing = (): Embedder & { calls: number } => {
    const embedder = {
      model: 'test:failing',
      relatedAbove: 0,
      calls: 0,
      embed: async () => {
        embedder.calls++;
        throw new Error('provider refused');
      },
    };
    return embedder;
  };

  const completedDebate = async () => {
    const id = await insertStoredDebate(
      { db: t.core.db },
      { ownerId: owner, question: `Open office ${id8()}?` },
    );
    await t.core.db.em().transactional((em) => queueEmbedding(em, id));
    return id;
  };
  const id8 = () => randomUUID().slice(0, 8);
  /** The debate's place in the embedding queue; undefined once the worker is done with it. */
  const queued = async (debateId: string) =>
    (
      await t.core.db.execute<{ due_at: string | null; attempts: number }>(
        'select due_at, attempts from embedding_queue where debate_id = ?',
        [debateId],
      )
    )[0];
  const embedded = async (debateId: string) =>
    (await t.core.db.execute('select 1 from debate_embeddings where debate_id = ?', [debateId])).length === 1;

  beforeAll(async () => {
    t = await createTestCore();
    owner = (await t.core.accounts.createUser({ email: 'embed@example.com', name: 'Embed' })).id;
  }, 60_000);
  afterAll(async () => {
    await t?.cleanup();
  });
  beforeEach(async () => {
    // Each test starts with nothing due: earlier tests' work is dropped.
    await t.core.db.execute('delete from embedding_queue');
    now = Date.parse('2026-11-25T12:00:00Z');
  });

  it('holds no lock while the provider answers, and takes the debate off the queue once embedded', async () => {
    const debateId = await completedDebate();
    const { embedder, pending } = heldEmbedder();
    const pass = embedCompletedDebates(t.core.db, embedder, clock, 10);
    await vi.waitFor(() => expect(pending).toHaveLength(1));
    // `nowait` fails at once on a row another transaction holds: the claim is a due time, not a lock.
    const locked = await t.core.db
      .em()
      .transactional((em) =>
        query<SimilarTables>(em)
          .selectFrom('embedding_queue')
          .select('debate_id')
          .where('debate_id', '=', debateId)
          .forUpdate()
          .noWait()
          .execute(),
      );
    expect(locked).toHaveLength(1);
    expect(await queued(debateId)).toEqual({ due_at: expect.anything(), attempts: 1 });
    pending[0]?.resolve([1, 0, 0]);
    expect(await pass).toEqual({ embedded: 1, failed: 0, abandoned: 0 });
    expect(await embedded(debateId)).toBe(true);
    expect(await queued(debateId)).toBeUndefined();
  });

  it('tries a failed debate again after a back-off that doubles, and gives it up after the last try', async () => {
    const debateId = await completedDebate();
    const embedder = failing();
    const failures: EmbedFailure[] = [];
    const pass = () => embedCompletedDebates(t.core.db, embedder, clock, 10, (f) => failures.push(f));

    expect(await pass()).toEqual({ embedded: 0, failed: 1, abandoned: 0 });
    expect(failures[0]).toMatchObject({ debateId, attempt: 1, retryAt: now + 30_000 });
    now += 29_999;
    expect(await pass()).toEqual({ embedded: 0, failed: 0, abandoned: 0 });
    expect(embedder.calls).toBe(1);
    now += 1;
    expect(await pass()).toEqual({ embedded: 0, failed: 1, abandoned: 0 });
    expect(failures[1]).toMatchObject({ attempt: 2, retryAt: now + 60_000 });

    // The rest of the tries, each at its due time.
    for (let attempt = 3; attempt <= EMBED_MAX_ATTEMPTS; attempt++) {
      now = failures.at(-1)?.retryAt ?? Number.NaN;
      await pass();
    }
    expect(embedder.calls).toBe(EMBED_MAX_ATTEMPTS);
    expect(failures.at(-1)).toMatchObject({ attempt: EMBED_MAX_ATTEMPTS, retryAt: null });
    // Back-offs grow to 6 hours and stop there.
    expect(failures.at(-2)?.retryAt).toBe((failures.at(-3)?.retryAt ?? 0) + 6 * 3_600_000);
    expect(await queued(debateId)).toBeUndefined();
    now += 7 * 24 * 3_600_000;
    expect(await pass()).toEqual({ embedded: 0, failed: 0, abandoned: 0 });
    expect(embedder.calls).toBe(EMBED_MAX_ATTEMPTS);
    expect(await embedded(debateId)).toBe(false);
  });

  it("takes back a dead node's claim when it runs out, and stores the embedding once", async () => {
    const debateId = await completedDebate();
    const dead = heldEmbedder();
    // A node claims the debate and never answers (it died during the call).
    const deadPass = embedCompletedDebates(t.core.db, dead.embedder, clock, 10);
    await vi.waitFor(() => expect(dead.pending).toHaveLength(1));
    const alive = heldEmbedder();
    const early = embedCompletedDebates(t.core.db, alive.embedder, clock, 10);
    expect(await early).toEqual({ embedded: 0, failed: 0, abandoned: 0 });
    now += EMBED_CLAIM_MS;
    const late = embedCompletedDebates(t.core.db, alive.embedder, clock, 10);
    await vi.waitFor(() => expect(alive.pending).toHaveLength(1));
    alive.pending[0]?.resolve([0, 1, 0]);
    expect(await late).toEqual({ embedded: 1, failed: 0, abandoned: 0 });
    // The first node was only slow after all: its late answer changes nothing.
    dead.pending[0]?.resolve([1, 0, 0]);
    await deadPass;
    const rows = await t.core.db.execute<{ embedding: number[]; model: string }>(
      'select embedding, model from debate_embeddings where debate_id = ?',
      [debateId],
    );
    expect(rows).toEqual([{ embedding: [0, 1, 0], model: 'test:held' }]);
  });

  it('drops a debate deleted for good during its call, and the pass ends without an error', async () => {
    const debateId = await completedDebate();
    const { embedder, pending } = heldEmbedder();
    const pass = embedCompletedDebates(t.core.db, embedder, clock, 10);
    await vi.waitFor(() => expect(pending).toHaveLength(1));
    await t.core.db.execute('delete from debates where id = ?', [debateId]);
    pending[0]?.resolve([1, 0, 0]);
    expect(await pass).toEqual({ embedded: 0, failed: 0, abandoned: 0 });
    expect(await embedded(debateId)).toBe(false);
    expect(await queued(debateId)).toBeUndefined();
  });

  it('drops a deleted debate without a call', async () => {
    const debateId = await completedDebate();
    await t.core.db.execute('update debates set deleted_at = now() where id = ?', [debateId]);
    const embedder = failing();
    expect(await embedCompletedDebates(t.core.db, embedder, clock, 10)).toEqual({
      embedded: 0,
      failed: 0,
      abandoned: 0,
    });
    expect(embedder.calls).toBe(0);
    expect(await queued(debateId)).toBeUndefined();
  });
});

describe('the embedding queue where nothing embeds', () => {
  let t: TestCore;
  const DAY = 86_400_000;
  const now = Date.parse('2026-11-25T12:00:00Z');
  const clock = { now: () => now };

  beforeAll(async () => {
    t = await createTestCore();
  }, 60_000);
  afterAll(async () => {
    await t?.cleanup();
  });

  it('drops debates that waited longer than the backlog, a batch at a time, and keeps younger ones', async () => {
    const ownerId = (await t.core.accounts.createUser({ email: 'backlog@example.com', name: 'Backlog' })).id;
    const queueAt = async (question: string, createdAt: number) => {
      const id = await insertStoredDebate({ db: t.core.db }, { ownerId, question });
      await t.core.db.em().transactional((em) => queueEmbedding(em, id));
      await t.core.db.execute('update embedding_queue set created_at = ? where debate_id = ?', [
        new Date(createdAt).toISOString(),
        id,
      ]);
      return id;
    };
    await queueAt('Old one?', now - 31 * DAY);
    await queueAt('Old two?', now - 30 * DAY - 1);
    const young = await queueAt('Young?', now - 29 * DAY);
    const drop = (batch: number) => dropStaleEmbeddings(t.core.db, clock, { olderThanMs: 30 * DAY, batch });
    expect(await drop(1)).toBe(1);
    expect(await drop(10)).toBe(1);
    expect(await drop(10)).toBe(0);
    const left = await t.core.db.execute<{ debate_id: string }>('select debate_id from embedding_queue');
    expect(left).toEqual([{ debate_id: young }]);
  });
});
