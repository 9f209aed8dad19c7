import { createAttachments } from '../attachments/attachments.ts';
import type { PageFetchOptions } from '../attachments/page-fetch.ts';
import type { PlanGates } from '../billing/plan-gates.ts';
import { createChains } from '../chains/chains.ts';
import type { Config } from '../config/config.ts';
import type { DebateAccess } from '../debates/debate-access.ts';
import { createOutcomes } from '../outcomes/outcomes.ts';
import { createScores } from '../outcomes/scores.ts';
import { createStreaks } from '../outcomes/streaks.ts';
import { createRecommendations } from '../recommendations/recommendations.ts';
import { createScheduledDebates } from '../scheduled-debates/scheduled-debates.ts';
import { createSearch } from '../search/search.ts';
import type { Embedder } from '../similar/embedder.ts';
import { createSimilar } from '../similar/similar.ts';
import { createWebhooks } from '../webhooks/webhooks.ts';
import type { Adapters } from './adapters.ts';

/**
 * What a user builds around their debates: outcomes and scores, chains, similar debates and search,
 * recommendations, schedules, webhooks, attachments.
 */
export function libraryServices(
  { db, reads, clock, blobs, onError }: Adapters,
  config: Config,
  features: {
    debateAccess: DebateAccess;
    plans: PlanGates;
    embedder: Embedder | null;
    pageFetch: Partial<PageFetchOptions> | undefined;
  },
) {
  const similar = createSimilar({ db, reads, embedder: features.embedder });
  return {
    outcomes: createOutcomes({ db, clock }),
    scores: createScores({ db, clock }),
    streaks: createStreaks({ db, clock }),
    chains: createChains({ db, clock }),
    similar,
    search: createSearch({
      db,
      reads,
      clock,
      // Semantic hits only add to search: a failing embedding provider, or lookups busy elsewhere, leave it
      // its keyword results.
      semanticHits: async (userId, q, limit) => {
        try {
          const nearest = await similar.hitsForSearch(userId, q, limit);
          return nearest.map((row) => ({ id: row.id, similarity: Number(row.similarity) }));
        } catch (error) {
          onError(error);
          return [];
        }
      },
    }),
    recommendations: createRecommendations({ db, clock }),
    scheduledDebates: createScheduledDebates({ db, clock }),
    webhooks: createWebhooks({ db, clock, policy: config.webhooks }),
    // Pages are fetched over http or https (page-fetch.ts), under the webhooks' address rules:
    // WEBHOOK_ALLOW_PRIVATE relaxes both alike; WEBHOOK_ALLOW_HTTP is the webhooks' alone.
    attachments: createAttachments({
      db,
      clock,
      plans: features.plans,
      blobs,
      debateAccess: features.debateAccess,
      pageFetch: {
        ...features.pageFetch,
        policy: { allowPrivate: config.webhooks.allowPrivate, ...features.pageFetch?.policy },
      },
    }),
  };
}
