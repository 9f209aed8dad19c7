import type { Verdict } from '@verdict/contracts';
import { sql } from 'kysely';
import { query } from '../db/kysely.ts';
import type { Database } from '../db/orm.ts';
import { hasSqlState, SQL_STATE } from '../db/sql-state.ts';
import type { Clock } from '../shared/clock.ts';
import { debateEmbeddingText, type Embedder, unitVector } from './embedder.ts';
import { claimDueEmbeddings, embeddingDueAgainAt, finishEmbeddings } from './embedding-queue.ts';
import type { SimilarTables } from './tables.ts';

/** What a pass did: debates embedded, calls that failed (due again later), debates given up on. */
export type EmbedPass = { embedded: number; failed: number; abandoned: number };

/** Why a debate's embedding failed, and whether it is tried again (and when) or given up on. */
export type EmbedFailure = { debateId: string; attempt: number; retryAt: number | null; error: unknown };

/**
 * How long a claim keeps other nodes off a row: longer than a batch's calls can take (each has its own
 * 15 s timeout, EMBED_CALLS_AT_ONCE at a time), so only a dead node's claim runs out.
 */
export const EMBED_CLAIM_MS = 120_000;
/** Embedding calls of one pass in flight together. */
const EMBED_CALLS_AT_ONCE = 4;
/**
 * Calls a debate gets before it is given up on, and the back-off between them: 30 s doubling up to 6 h.
 * The waits after calls 1–10 add up to 8.5 h, each later one is 6 h, so the 14th and last call comes
 * ~26.5 h after the first failed one: a provider outage of a day still ends with every debate embedded,
 * while a text the provider always refuses stops costing calls.
 */
export const EMBED_MAX_ATTEMPTS = 14;
const BACKOFF_FIRST_MS = 30_000;
const BACKOFF_MAX_MS = 6 * 3_600_000;

/** When a debate whose `attempt`-th call failed is due again; null once it is given up on. */
export function embedRetryAt(now: number, attempt: number): number | null {
  if (attempt >= EMBED_MAX_ATTEMPTS) return null;
  return now + Math.min(BACKOFF_MAX_MS, BACKOFF_FIRST_MS * 2 ** (attempt - 1));
}

type Claimed = { debateId: string; ownerId: string; text: string; attempt: number };

/**
 * Claims the queued debates that are due (embedding-queue.ts): no lock is held while the provider answers. A
 * debate that is gone or deleted leaves the queue at once with nothing to embed.
 */
async function claimDue(db: Database, now: number, batch: number): Promise<Claimed[]> {
  const due = await claimDueEmbeddings(db, now, batch, EMBED_CLAIM_MS);
  const gone = due.filter((row) => row.debate === null).map((row) => row.debateId);
  await finishEmbeddings(db.em(), gone);
  return due.flatMap(({ debateId, attempts, debate }) => {
    if (!debate) return [];
    const oneLiner = (debate.verdict as Verdict | null)?.oneLiner ?? null;
    const text = debateEmbeddingText({ question: debate.question, context: debate.context, oneLiner });
    return [{ debateId, ownerId: debate.ownerId, text, attempt: attempts }];
  });
}

/** Stores a debate's embedding and takes it off the queue, together (a second store of the same debate is a no-op). */
async function storeEmbedding(db: Database, row: Claimed, model: string, vector: number[]): Promise<void> {
  await db.em().transactional(async (em) => {
    await query<SimilarTables>(em)
      .insertInto('debate_embeddings')
      .values({
        debate_id: row.debateId,
        owner_id: row.ownerId,
        model,
        embedding: sql<number[]>`${`{${vector.join(',')}}`}::real[]`,
      })
      .onConflict((oc) => oc.column('debate_id').doNothing())
      .execute();
    await finishEmbeddings(em, [row.debateId]);
  });
}

/** The debate is done with: given up on, or gone. */
const finish = (db: Database, row: Claimed) => finishEmbeddings(db.em(), [row.debateId]);

/**
 * One pass of the embedding worker: claims the queued debates due for an embedding, embeds them outside
 * any transaction (a few calls at once), and stores each embedding as its debate leaves the queue. A failed call makes the
 * debate due again after a back-off (30 s doubling to 6 h) and, after EMBED_MAX_ATTEMPTS calls, gives it up;
 * `onFailure` hears of each. A node that dies mid-pass leaves claims that run out after EMBED_CLAIM_MS.
 * Storing is idempotent: a debate embedded twice (a claim that ran out under a slow node) keeps its first.
 */
export async function embedCompletedDebates(
  db: Database,
  embedder: Embedder,
  clock: Clock,
  batch: number,
  onFailure: (failure: EmbedFailure) => void = () => {},
): Promise<EmbedPass> {
  const claimed = await claimDue(db, clock.now(), batch);
  const pass: EmbedPass = { embedded: 0, failed: 0, abandoned: 0 };
  const embedOne = async (row: Claimed) => {
    let vector: number[];
    try {
      vector = unitVector(await embedder.embed(row.text));
    } catch (error) {
      const retryAt = embedRetryAt(clock.now(), row.attempt);
      await (retryAt === null ? finish(db, row) : embeddingDueAgainAt(db, row.debateId, retryAt));
      if (retryAt === null) pass.abandoned++;
      else pass.failed++;
      onFailure({ debateId: row.debateId, attempt: row.attempt, retryAt, error });
      return;
    }
    try {
      await storeEmbedding(db, row, embedder.model, vector);
      pass.embedded++;
    } catch (error) {
      // Deleted for good during the call: the embedding has nothing to belong to (its queue row went with it).
      if (!hasSqlState(error, SQL_STATE.foreignKeyViolation)) throw error;
      await finish(db, row);
    }
  };
  // A few callers, each taking the next claimed row until none is left. Each runs to its end whatever the
  // others meet, so a pass never returns with calls still in flight; a storage failure is reported after.
  const queue = [...claimed];
  const caller = async () => {
    for (let row = queue.shift(); row; row = queue.shift()) await embedOne(row);
  };
  const callers = Array.from({ length: Math.min(EMBED_CALLS_AT_ONCE, queue.length) }, caller);
  const failure = (await Promise.allSettled(callers)).find((c) => c.status === 'rejected');
  if (failure) throw failure.reason;
  return pass;
}
