import { Recommendations, RecommendationsQuery } from '@verdict/contracts';
import { userProcedure } from '../../trpc/init.ts';

export const getRecommendations = userProcedure
  .meta({
    errors: { RECOMMENDATIONS_FAILED: 'The recommendations could not be computed' },
    openapi: {
      method: 'GET',
      path: '/api/recommendations',
      summary: "Other users' public debates you may want to read",
      description:
        'With at least 3 debates of your own: public debates matching the recurring words of your questions ' +
        '(recommendationReason "Based on your interests"), topped up with trending ones; otherwise the public ' +
        'debates of the last 30 days with the most views, votes and forks ("Trending on Verdict"). Never your ' +
        'own or private debates. limit is clamped to 1–20 (default 10).',
    },
  })
  .input(RecommendationsQuery)
  .output(Recommendations)
  .query(({ ctx, input }) => ctx.services.recommendations.for(ctx.caller.userId, input.limit));
