import type { SimilarDebates, Verdict } from '@verdict/contracts';
import { readAs } from '../replica/read-as.ts';
import { AppError } from '../shared/app-error.ts';
import { unitVector } from './embedder.ts';
import { lookUp, type NearRow, type SimilarLookups, type SimilarResources } from './similar-lookups.ts';

/** The caller's own debates nearest the text, best first (GET /api/similar); waits its turn for a slot. */
export const findSimilar = (resources: SimilarResources, { slots, vectorStorage }: SimilarLookups) => {
  const { embedder } = resources;
  const nearest = async (userId: string, text: string, limit: number) => {
    if (!embedder) return [];
    const vector = unitVector(await embedder.embed(text));
    return slots.run('similar', async () => {
      const storage = await vectorStorage();
      return readAs(resources, userId, (db) =>
        lookUp(db.em(), storage, { model: embedder.model, userId, vector, limit }),
      );
    });
  };
  return async (userId: string, text: string, limit: number): Promise<SimilarDebates> => {
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
  };
};

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
