import { SimilarDebates, SimilarQuery } from '@verdict/contracts';
import { AppError } from '@verdict/core';
import { userProcedure } from '../../trpc/init.ts';

export const findSimilar = userProcedure
  .meta({
    errors: {
      MISSING_QUERY: 'No q, or a q with nothing but spaces',
      SIMILAR_SEARCH_FAILED: 'The embedding provider or the lookup failed',
      SERVICE_UNAVAILABLE: 'Too many lookups at once on this server; retry after Retry-After seconds',
    },
    openapi: {
      method: 'GET',
      path: '/api/similar',
      summary: 'Your own debates closest in meaning to a text',
      description:
        'Embeds q with the deployment’s embedding model and compares it with the embeddings of your completed ' +
        'debates (made by the engine nodes when each completes), best first, with the cosine similarity. ' +
        'Without an embedding-capable provider key the results are empty (200). limit is clamped to 1–20 ' +
        '(default 5). A server runs few lookups at once; past a short line it answers 503 with Retry-After.',
    },
  })
  .input(SimilarQuery)
  .output(SimilarDebates)
  .query(({ ctx, input }) => {
    const q = input.q?.trim();
    if (!q) throw new AppError('MISSING_QUERY', 'Send the text to compare as q');
    return ctx.services.similar.find(ctx.caller.userId, q, input.limit);
  });
