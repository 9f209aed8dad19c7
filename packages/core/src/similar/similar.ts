import { findSimilar } from './find-similar.ts';
import { hitsForSearch } from './hits-for-search.ts';
import { createSimilarLookups, type SimilarResources } from './similar-lookups.ts';

export type { LookupLimits, SimilarResources } from './similar-lookups.ts';

/**
 * The caller's own debates closest in meaning to a text: its embedding against theirs (same model only),
 * cosine similarity in SQL (pgvector or plain arrays, whichever the database stores), best first. Without
 * an embedder (no embedding-capable key) there is nothing to compare: an empty list, as the spec says.
 */
export function createSimilar(resources: SimilarResources) {
  const lookups = createSimilarLookups(resources);
  return {
    /** Which embedding model is active ("provider:model"), or null: for the start-up log line. */
    model: resources.embedder?.model ?? null,

    /** How this database stores embeddings: for the start-up log line. */
    storage: () => lookups.vectorStorage().then((s) => s.kind),

    hitsForSearch: hitsForSearch(resources, lookups),

    find: findSimilar(resources, lookups),
  };
}
