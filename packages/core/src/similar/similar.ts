import type { SimilarDebates, Verdict } from '@verdict/contracts';
import { sql } from 'kysely';
import { query } from '../db/kysely.ts';
import type { Database } from '../db/orm.ts';
import type { DebateTables } from '../debates/tables.ts';
import { AppError } from '../shared/app-error.ts';
import { type Embedder, unitVector } from './embedder.ts';
import type { SimilarTables } from './tables.ts';

type Tables = DebateTables & SimilarTables;

/**
 * The caller's own debates closest in meaning to a text: its embedding against theirs (same model only),
 * cosine similarity in SQL, best first. Without an embedder (no embedding-capable key) there is nothing to
 * compare: an empty list, as the spec says.
 */
export function createSimilar(db: Database, embedder: Embedder | null) {
  /** The ids and similarity of the caller's debates nearest `text`; for search's semantic hits too. */
  const nearest = async (userId: string, text: string, limit: number) => {
    if (!embedder) return [];
    const vector = unitVector(await embedder.embed(text));
    const literal = `{${vector.join(',')}}`;
    return query<Tables>(db.em())
      .selectFrom('debate_embeddings as e')
      .innerJoin('debates as d', 'd.id', 'e.debate_id')
      .select([
        'd.id',
        'd.question',
        'd.status',
        'd.created_at',
        'd.verdict',
        sql<number>`(select sum(a * b) from unnest(e.embedding, ${literal}::real[]) as t(a, b))`.as(
          'similarity',
        ),
      ])
      .where('e.owner_id', '=', userId)
      .where('e.model', '=', embedder.model)
      .where('d.deleted_at', 'is', null)
      .orderBy('similarity', 'desc')
      .limit(limit)
      .execute();
  };

  return {
    /** Which embedding model is active ("provider:model"), or null: for the start-up log line. */
    model: embedder?.model ?? null,

    nearest,

    find: async (userId: string, text: string, limit: number): Promise<SimilarDebates> => {
      try {
        const rows = await nearest(userId, text, limit);
        return {
          results: rows.map((row) => {
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
          }),
        };
      } catch (error) {
        throw new AppError('SIMILAR_SEARCH_FAILED', 'Similar debates could not be looked up', {
          cause: error,
        });
      }
    },
  };
}
