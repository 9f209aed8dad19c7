import type { Verdict } from '@verdict/contracts';
import { sql } from 'kysely';
import { query } from '../db/kysely.ts';
import type { Database } from '../db/orm.ts';
import { hasSqlState, SQL_STATE } from '../db/sql-state.ts';
import type { DebateTables } from '../debates/tables.ts';
import type { Clock } from '../shared/clock.ts';
import type { WebhookTables } from '../webhooks/tables.ts';
import { debateEmbeddingText, type Embedder, unitVector } from './embedder.ts';
import type { SimilarTables } from './tables.ts';

type Tables = WebhookTables & DebateTables & SimilarTables;

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

type Claimed = {
  id: string;
  debateId: string;
  ownerId: string;
  text: string;
  attempt: number;
};

/**
 * Claims up to `batch` debate.completed rows not yet embedded and due (`skip locked`: nodes claiming
 * together take different rows), in one short transaction: each row's claim is an `embed_due_at` in the
 * future, so no lock is held while the provider answers, and the webhook dispatcher and score worker, which
 * claim the same rows for their own stamps, never wait on an embedding. A row whose debate is gone or
 * deleted is stamped at once with nothing to embed.
 */
async function claimDue(db: Database, now: number, batch: number): Promise<Claimed[]> {
  return db.em().transactional(async (em) => {
    const k = query<Tables>(em);
    const due = await k
      .selectFrom('webhook_outbox as o')
      .leftJoin('debates as d', 'd.id', 'o.debate_id')
      .select(['o.id', 'o.debate_id', 'o.embed_attempts', 'd.owner_id', 'd.question', 'd.context'])
      .select(['d.verdict', 'd.deleted_at'])
      .where('o.event', '=', 'debate.completed')
      .where('o.embedded_at', 'is', null)
      .where((w) =>
        w.or([w('o.embed_due_at', 'is', null), w('o.embed_due_at', '<=', new Date(now).toISOString())]),
      )
      .orderBy('o.created_at')
      .limit(batch)
      .forUpdate('o')
      .skipLocked()
      .execute();
    const claimed: Claimed[] = [];
    const gone: string[] = [];
    for (const row of due) {
      if (!row.debate_id || !row.owner_id || !row.question || row.deleted_at) {
        gone.push(row.id);
        continue;
      }
      const oneLiner = (row.verdict as Verdict | null)?.oneLiner ?? null;
      claimed.push({
        id: row.id,
        debateId: row.debate_id,
        ownerId: row.owner_id,
        text: debateEmbeddingText({ question: row.question, context: row.context ?? null, oneLiner }),
        attempt: row.embed_attempts + 1,
      });
    }
    if (gone.length > 0) {
      await k
        .updateTable('webhook_outbox')
        .set({ embedded_at: sql`now()` })
        .where('id', 'in', gone)
        .execute();
    }
    if (claimed.length > 0) {
      await k
        .updateTable('webhook_outbox')
        .set({
          embed_due_at: new Date(now + EMBED_CLAIM_MS),
          embed_attempts: sql<number>`embed_attempts + 1`,
        })
        .where(
          'id',
          'in',
          claimed.map((row) => row.id),
        )
        .execute();
    }
    return claimed;
  });
}

/** Stores a debate's embedding and stamps its row, together (a second store of the same debate is a no-op). */
async function storeEmbedding(db: Database, row: Claimed, model: string, vector: number[]): Promise<void> {
  await db.em().transactional(async (em) => {
    const k = query<Tables>(em);
    await k
      .insertInto('debate_embeddings')
      .values({
        debate_id: row.debateId,
        owner_id: row.ownerId,
        model,
        embedding: sql<number[]>`${`{${vector.join(',')}}`}::real[]`,
      })
      .onConflict((oc) => oc.column('debate_id').doNothing())
      .execute();
    await k.updateTable('webhook_outbox').set({ embedded_at: sql`now()` }).where('id', '=', row.id).execute();
  });
}

/** The row is done with: embedded, given up on, or its debate gone. */
async function stampDone(db: Database, row: Claimed): Promise<void> {
  await query<Tables>(db.em())
    .updateTable('webhook_outbox')
    .set({ embedded_at: sql`now()` })
    .where('id', '=', row.id)
    .execute();
}

/** After a failed call: the row is claimable again at `at`. */
async function dueAgainAt(db: Database, row: Claimed, at: number): Promise<void> {
  await query<Tables>(db.em())
    .updateTable('webhook_outbox')
    .set({ embed_due_at: new Date(at) })
    .where('id', '=', row.id)
    .execute();
}

/**
 * One pass of the embedding worker: claims the completed debates due for an embedding, embeds them outside
 * any transaction (a few calls at once), and stores each embedding with its stamp. A failed call makes the
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
      await (retryAt === null ? stampDone(db, row) : dueAgainAt(db, row, retryAt));
      if (retryAt === null) pass.abandoned++;
      else pass.failed++;
      onFailure({ debateId: row.debateId, attempt: row.attempt, retryAt, error });
      return;
    }
    try {
      await storeEmbedding(db, row, embedder.model, vector);
      pass.embedded++;
    } catch (error) {
      // Deleted for good during the call: the embedding has nothing to belong to; the row is done with.
      if (!hasSqlState(error, SQL_STATE.foreignKeyViolation)) throw error;
      await stampDone(db, row);
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
