import type { EntityManager } from '@mikro-orm/core';
import type { SimilarDebates, Verdict } from '@verdict/contracts';
import { sql } from 'kysely';
import { query } from '../db/kysely.ts';
import type { Database } from '../db/orm.ts';
import { hasSqlState, SQL_STATE } from '../db/sql-state.ts';
import type { DebateTables } from '../debates/tables.ts';
import { AppError, serviceBusy } from '../shared/app-error.ts';
import { createConcurrencyLimit } from '../shared/concurrency-limit.ts';
import { type Embedder, unitVector } from './embedder.ts';
import type { SimilarTables } from './tables.ts';
import { detectVectorStorage, similarityTo, type VectorStorage } from './vector-storage.ts';

type Tables = DebateTables & SimilarTables;

/** One lookup: the caller's embeddings of `model` nearest `vector` (unit length), `limit` of them. */
type Lookup = { model: string; userId: string; vector: number[]; limit: number };

/**
 * A lookup compares the question with every embedding of the caller's history and holds a pooled
 * connection while it does: with plain arrays (no pgvector) ~0.27 ms per embedding, seconds for a history
 * of 10,000 (BENCHMARKS.md). So few run at once per process, against a pool of 10: the rest of the API
 * keeps its connections. /api/similar waits its turn in a bounded line, refused with 503 past it. Search
 * never waits: it answers with its keyword results alone when every slot is taken, and when its semantic
 * part (embedding the text, then the lookup) would take longer than `searchBudgetMs`.
 */
export type LookupLimits = { atOnce: number; similarQueue: number; searchBudgetMs: number };
const LOOKUP_LIMITS: LookupLimits = { atOnce: 3, similarQueue: 30, searchBudgetMs: 2_000 };
const busy = () => serviceBusy('Too many similar-debate lookups at once; retry in a moment', 5);

/**
 * The caller's own debates closest in meaning to a text: its embedding against theirs (same model only),
 * cosine similarity in SQL (pgvector or plain arrays, whichever the database stores), best first. Without
 * an embedder (no embedding-capable key) there is nothing to compare: an empty list, as the spec says.
 */
export function createSimilar(db: Database, embedder: Embedder | null, limits = LOOKUP_LIMITS) {
  const lookups = createConcurrencyLimit(
    limits.atOnce,
    { similar: { maxQueued: limits.similarQueue }, search: { maxQueued: 0 } },
    busy,
  );
  const vectorStorage = storageOnce(db);

  /**
   * Search's lookup, stopped by PostgreSQL when it outlasts `deadline` (search's budget). The storage is
   * known before the transaction: finding it out uses a connection of its own (PGlite has only one).
   */
  const lookUpBy = async (deadline: number, lookup: Lookup) => {
    const storage = await vectorStorage();
    return db.em().transactional(async (em) => {
      const timeout = String(Math.max(1, Math.ceil(deadline - Date.now())));
      await sql`select set_config('statement_timeout', ${timeout}, true)`.execute(query(em));
      return lookUp(em, storage, lookup);
    });
  };

  const nearest = async (userId: string, text: string, limit: number) => {
    if (!embedder) return [];
    const vector = unitVector(await embedder.embed(text));
    return lookups.run('similar', async () =>
      lookUp(db.em(), await vectorStorage(), { model: embedder.model, userId, vector, limit }),
    );
  };

  return {
    /** Which embedding model is active ("provider:model"), or null: for the start-up log line. */
    model: embedder?.model ?? null,

    /** How this database stores embeddings: for the start-up log line. */
    storage: () => vectorStorage().then((s) => s.kind),

    /**
     * Search's semantic hits: the caller's debates related to the text by the model's own measure
     * (`relatedAbove`), best first. None, at once, when every lookup slot is taken or the budget runs
     * out: search has its keyword results.
     */
    hitsForSearch: async (userId: string, text: string, limit: number) => {
      if (!embedder || lookups.active >= limits.atOnce) return [];
      const deadline = Date.now() + limits.searchBudgetMs;
      const signal = AbortSignal.timeout(limits.searchBudgetMs);
      try {
        const vector = unitVector(await embedder.embed(text, signal));
        const rows = await lookups.run('search', () =>
          lookUpBy(deadline, { model: embedder.model, userId, vector, limit }),
        );
        return rows.filter((row) => Number(row.similarity) > embedder.relatedAbove);
      } catch (error) {
        // Out of budget, or every slot was taken while the text was being embedded.
        if (signal.aborted || hasSqlState(error, SQL_STATE.queryCanceled)) return [];
        if (error instanceof AppError && error.code === 'SERVICE_UNAVAILABLE') return [];
        throw error;
      }
    },

    find: async (userId: string, text: string, limit: number): Promise<SimilarDebates> => {
      try {
        const rows = await nearest(userId, text, limit);
        return {
          results: rows.map(toSimilarDebate),
        };
      } catch (error) {
        if (error instanceof AppError) throw error;
        throw new AppError('SIMILAR_SEARCH_FAILED', 'Similar debates could not be looked up', {
          cause: error,
        });
      }
    },
  };
}

/**
 * The ids and similarity of the caller's live debates nearest `vector`. Ranked over the embeddings alone,
 * then joined to their debates for the top `limit` only, so no more of `debates` is read than is shown.
 */
const lookUp = (em: EntityManager, storage: VectorStorage, { model, userId, vector, limit }: Lookup) => {
  const k = query<Tables>(em);
  const ranked = k
    .selectFrom('debate_embeddings as e')
    .select(['e.debate_id', similarityTo(storage, vector).as('similarity')])
    .where('e.owner_id', '=', userId)
    .where('e.model', '=', model)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('debates as gone')
            .select('gone.id')
            .whereRef('gone.id', '=', 'e.debate_id')
            .where('gone.deleted_at', 'is not', null),
        ),
      ),
    )
    .orderBy('similarity', 'desc')
    .limit(limit);
  return k
    .selectFrom(ranked.as('r'))
    .innerJoin('debates as d', 'd.id', 'r.debate_id')
    .select(['d.id', 'd.question', 'd.status', 'd.created_at', 'd.verdict', 'r.similarity'])
    .orderBy('r.similarity', 'desc')
    .execute();
};

type NearRow = Awaited<ReturnType<typeof lookUp>>[number];

/** A near debate as GET /api/similar lists it: its verdict's gist once completed, the similarity in [0, 1]. */
function toSimilarDebate(row: NearRow) {
  const verdict = row.status === 'completed' ? (row.verdict as Verdict | null) : null;
  return {
    id: row.id,
    question: row.question,
    status: row.status,
    createdAt: new Date(row.created_at).toISOString(),
    recommendation: verdict?.recommendation ?? null,
    oneLiner: verdict?.oneLiner ?? null,
    confidence: verdict?.confidence ?? null,
    similarity: Math.max(0, Math.min(1, Number(row.similarity))),
  };
}

/** How the database stores embeddings, looked up on first use, once: a migration fixes it, nothing changes it while the service runs. */
function storageOnce(db: Database) {
  let storage: Promise<VectorStorage> | undefined;
  return () => {
    storage ??= detectVectorStorage(db).catch((error: unknown) => {
      storage = undefined;
      throw error;
    });
    return storage;
  };
}
