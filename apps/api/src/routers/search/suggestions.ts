import { Suggestions, SuggestionsQuery } from '@verdict/contracts';
import { userProcedure } from '../../trpc/init.ts';

export const suggestions = userProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/search/suggestions',
      summary: 'Autocomplete for search, from your searches and your debate questions',
      description:
        'Without q (or with a blank one): your recent searches, newest first. With q: your earlier searches ' +
        'starting with q (any case, newest first, source `history`), then questions of your debates ' +
        'starting with q (newest first, each text once, source `debate`); at most 10 in all.',
    },
  })
  .input(SuggestionsQuery)
  .output(Suggestions)
  .query(({ ctx, input }) => ctx.services.search.suggestions(ctx.caller.userId, input.q));
