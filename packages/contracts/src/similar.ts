import { z } from 'zod';
import { Recommendation } from './debates.ts';

export const SIMILAR_MAX = 20;
export const SIMILAR_DEFAULT = 5;

/**
 * GET /api/similar: `q` is required (MISSING_QUERY when absent or blank, checked by the route); `limit` is
 * clamped to 1–20, not refused.
 */
export const SimilarQuery = z.object({
  q: z.string().max(2000).optional().meta({ description: 'The text to find similar debates to (required)' }),
  limit: z.coerce
    .number()
    .int()
    .default(SIMILAR_DEFAULT)
    .transform((n) => Math.min(SIMILAR_MAX, Math.max(1, n)))
    .meta({ description: 'Clamped to 1–20; default 5' }),
});

export const SimilarDebate = z
  .object({
    id: z.uuid(),
    question: z.string(),
    status: z.string(),
    createdAt: z.iso.datetime(),
    recommendation: Recommendation.nullable(),
    oneLiner: z.string().nullable(),
    confidence: z.number().min(0).max(1).nullable(),
    similarity: z.number().min(0).max(1).meta({ description: 'Cosine similarity of the embeddings, 0–1' }),
  })
  .meta({ id: 'SimilarDebate' });

export const SimilarDebates = z.object({ results: z.array(SimilarDebate) }).meta({ id: 'SimilarDebates' });
export type SimilarDebates = z.infer<typeof SimilarDebates>;
