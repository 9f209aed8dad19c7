import type { EntityManager } from '@mikro-orm/core';
import { query } from '../db/kysely.ts';
import type { Database } from '../db/orm.ts';
import type { DebateTables } from '../debates/tables.ts';
import type { CoreResources } from '../resources.ts';
import { serviceBusy } from '../shared/app-error.ts';
import { createConcurrencyLimit } from '../shared/concurrency-limit.ts';
import type { Embedder } from './embedder.ts';
import type { SimilarTables } from './tables.ts';
import { detectVectorStorage, similarityTo, type VectorStorage } from './vector-storage.ts';

type Tables = DebateTables & SimilarTables;

/** One lookup: the caller's embeddings of `model` nearest `vector` (unit length), `limit` of them. */
export type Lookup = { model: string; userId: string; vector: number[]; limit: number };

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

/** What similar debates use: core's database, the embedder (none without an embedding-capable key), the lookup limits. */
export type SimilarResources = Pick<CoreResources, 'db' | 'reads'> & {
  embedder: Embedder | null;
  limits?: LookupLimits;
};

/** The lookups' shared state, created once per createSimilar: the slots lookups run in and the storage found. */
export type SimilarLookups = ReturnType<typeof createSimilarLookups>;

export function createSimilarLookups({ db, limits = LOOKUP_LIMITS }: SimilarResources) {
  return {
    limits,
    slots: createConcurrencyLimit(
      limits.atOnce,
      { similar: { maxQueued: limits.similarQueue }, search: { maxQueued: 0 } },
      busy,
    ),
    vectorStorage: storageOnce(db),
  };
}

/**
 * The ids and similarity of the caller's live debates nearest `vector`. Ranked over the embeddings alone,
 * then joined to their debates for the top `limit` only, so no more of `debates` is read than is shown.
 */
export const lookUp = (
  em: EntityManager,
  storage: VectorStorage,
  { model, userId, vector, limit }: Lookup,
) => {
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

export type NearRow = Awaited<ReturnType<typeof lookUp>>[number];

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
