import { SearchQuery, SearchResults } from '@verdict/contracts';
import { userProcedure } from '../../trpc/init.ts';

export const search = userProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/search',
      summary: 'Search your own debates by keyword and full text',
      description:
        'A debate matches when its question or context contains q (any case; `%` and `_` are plain ' +
        'characters) or matches it as English full text (websearch syntax: "phrase", or, -word). Only your ' +
        'own undeleted debates; filters combine with AND. sort=relevance orders by full-text rank ' +
        '(relevanceScore 0–1), keyword-only matches (relevanceScore null) after the ranked ones; ' +
        'sort=popularity by view count. dateTo includes its whole UTC day (a datetime too: through the end ' +
        'of its UTC day). Semantic hits, when the deployment provides them, follow the keyword matches on ' +
        'their last page with relevanceScore null, and are not counted in total. The search is added to ' +
        'your search history (the newest 50 are kept).',
    },
  })
  .input(SearchQuery)
  .output(SearchResults)
  .query(({ ctx, input }) => ctx.services.search.search(ctx.caller.userId, input));
