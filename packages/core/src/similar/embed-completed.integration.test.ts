import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { refreshDueScores } from '../outcomes/scores.ts';
import { createTestCore, insertStoredDebate, type TestCore } from '../testing/index.ts';
import { dispatchOutbox } from '../webhooks/dispatch.ts';
import {
  EMBED_CLAIM_MS,
  EMBED_MAX_ATTEMPTS,
  type EmbedFailure,
  embedCompletedDebates,
} from './embed-completed.ts';
import type { Embedder } from './embedder.ts';

/**
 * The embedding worker's claims: what it holds while a provider answers (nothing the other consumers of
 * the outbox wait on), how a failed call comes due again, when it gives up, and what a dead node leaves.
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
    await t.core.db.execute(
      `insert into webhook_outbox (user_id, event, debate_id, dedupe_key, payload)
       values (?, 'debate.completed', ?, ?, '{}')`,
      [owner, id, `debate.completed:${id}`],
    );
    return id;
  };
  const id8 = () => randomUUID().slice(0, 8);
  const outboxRow = async (debateId: string) =>
    (
      await t.core.db.execute<{
        embedded_at: string | null;
        embed_due_at: string | null;
        embed_attempts: number;
      }>('select embedded_at, embed_due_at, embed_attempts from webhook_outbox where debate_id = ?', [
        debateId,
      ])
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
    // Each test starts with nothing due: earlier tests' rows are stamped.
    await t.core.db.execute(`update webhook_outbox set embedded_at = now() where embedded_at is null`);
    now = Date.parse('2026-11-25T12:00:00Z');
  });

  it('holds no lock while the provider answers: the dispatcher and the score worker take the same row meanwhile', async () => {
    const debateId = await completedDebate();
    const { embedder, pending } = heldEmbedder();
    const pass = embedCompletedDebates(t.core.db, embedder, clock, 10);
    await vi.waitFor(() => expect(pending).toHaveLength(1));
    // Both claim with `for update skip locked`: a row locked by the embedding pass would be skipped.
    await dispatchOutbox(t.core.db, clock, 10);
    await refreshDueScores(t.core.db, 10);
    const stamps = await t.core.db.execute<{ dispatched_at: string | null; scored_at: string | null }>(
      'select dispatched_at, scored_at from webhook_outbox where debate_id = ?',
      [debateId],
    );
    expect(stamps[0]?.dispatched_at).not.toBeNull();
    expect(stamps[0]?.scored_at).not.toBeNull();
    pending[0]?.resolve([1, 0, 0]);
    expect(await pass).toEqual({ embedded: 1, failed: 0, abandoned: 0 });
    expect(await embedded(debateId)).toBe(true);
    expect((await outboxRow(debateId))?.embedded_at).not.toBeNull();
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
    const row = await outboxRow(debateId);
    expect(row?.embedded_at).not.toBeNull();
    expect(row?.embed_attempts).toBe(EMBED_MAX_ATTEMPTS);
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

  it('stamps a debate deleted for good during its call, and the pass ends without an error', async () => {
    const debateId = await completedDebate();
    const { embedder, pending } = heldEmbedder();
    const pass = embedCompletedDebates(t.core.db, embedder, clock, 10);
    await vi.waitFor(() => expect(pending).toHaveLength(1));
    await t.core.db.execute('delete from debates where id = ?', [debateId]);
    pending[0]?.resolve([1, 0, 0]);
    expect(await pass).toEqual({ embedded: 0, failed: 0, abandoned: 0 });
    expect(await embedded(debateId)).toBe(false);
    expect((await outboxRow(debateId))?.embedded_at).not.toBeNull();
  });

  it('stamps a deleted debate without a call', async () => {
    const debateId = await completedDebate();
    await t.core.db.execute('update debates set deleted_at = now() where id = ?', [debateId]);
    const embedder = failing();
    expect(await embedCompletedDebates(t.core.db, embedder, clock, 10)).toEqual({
      embedded: 0,
      failed: 0,
      abandoned: 0,
    });
    expect(embedder.calls).toBe(0);
    expect((await outboxRow(debateId))?.embedded_at).not.toBeNull();
  });
});
