import { defineEntity, p } from '@mikro-orm/core';
import { User } from '../accounts/user.entity.ts';

/**
 * A search a user made, for suggestions (search/search-history.ts). One row per query text, whatever its
 * case (the unique index below): repeating a search moves it to the top instead of adding a row. Only the
 * newest SEARCH_HISTORY_KEPT of a user are kept.
 */
export const SearchHistorySchema = defineEntity({
  name: 'SearchHistory',
  tableName: 'search_history',
  indexes: [
    { name: 'search_history_user_created_index', properties: ['user', 'createdAt'] },
    {
      name: 'search_history_user_query_unique',
      expression: `create unique index "search_history_user_query_unique" on "search_history" ("user_id", lower("query"))`,
    },
  ],
  properties: {
    id: p.uuid().primary().defaultRaw('gen_random_uuid()'),
    user: () => p.manyToOne(User).deleteRule('cascade'),
    query: p.string().length(200),
    /** When it was last searched: newest first is the order of suggestions. */
    createdAt: p.datetime().defaultRaw('now()'),
  },
});

export class SearchHistory extends SearchHistorySchema.class {}
SearchHistorySchema.setClass(SearchHistory);
