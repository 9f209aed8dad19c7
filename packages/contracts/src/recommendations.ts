import { z } from 'zod';
import { DebateMode, Recommendation } from './debates.ts';

export const RECOMMENDATIONS_MAX = 20;
export const RECOMMENDATIONS_DEFAULT = 10;

/** The service's name in "Trending on <service name>". */
export const SERVICE_NAME = 'Verdict';

export const RecommendationReason = z.enum(['Based on your interests', `Trending on ${SERVICE_NAME}`]);
export type RecommendationReason = z.infer<typeof RecommendationReason>;

/** GET /api/recommendations: `limit` is clamped to 1–20 (the spec's rule), not refused. */
export const RecommendationsQuery = z.object({
  limit: z.coerce
    .number()
    .int()
    .default(RECOMMENDATIONS_DEFAULT)
    .transform((n) => Math.min(RECOMMENDATIONS_MAX, Math.max(1, n)))
    .meta({ description: 'Clamped to 1–20; default 10' }),
});

/** Another user's public debate suggested to the caller. */
export const RecommendedDebate = z
  .object({
    id: z.uuid(),
    question: z.string(),
    mode: DebateMode.nullable(),
    status: z.string(),
    createdAt: z.iso.datetime(),
    completedAt: z.iso.datetime().nullable(),
    recommendation: Recommendation.nullable(),
    oneLiner: z.string().nullable(),
    confidence: z.number().min(0).max(1).nullable(),
    viewCount: z.number().int(),
    recommendationReason: RecommendationReason,
  })
  .meta({ id: 'RecommendedDebate' });
export type RecommendedDebate = z.infer<typeof RecommendedDebate>;

export const Recommendations = z
  .object({ recommendations: z.array(RecommendedDebate) })
  .meta({ id: 'Recommendations' });
export type Recommendations = z.infer<typeof Recommendations>;
