import type { TablesOf } from '../db/kysely.ts';
import type { DebateEmbeddingSchema } from './debate-embedding.entity.ts';
import type { EmbeddingWorkSchema } from './embedding-work.entity.ts';

/** The tables similar-debate lookup owns, for typed queries (db/kysely.ts). */
export type SimilarTables = TablesOf<typeof DebateEmbeddingSchema | typeof EmbeddingWorkSchema>;
