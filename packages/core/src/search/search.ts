import { clearSearchHistory } from './clear-search-history.ts';
import { searchDebates } from './search-debates.ts';
import type { SearchResources } from './search-resources.ts';
import { suggestSearches } from './suggest-searches.ts';

export type { SearchOptions, SearchResources, SemanticHits } from './search-resources.ts';

/**
 * Search of the caller's own debates (GET /api/search). A debate matches when its question or context
 * contains the text (any case, wildcards taken literally) or matches it as full text (English stemming);
 * `relevance` sorts by full-text rank, keyword-only matches last. Semantic hits (optional) follow the
 * keyword matches on the page where those end and are not counted in total. Every search is recorded in the
 * caller's history, on the primary (the page itself may be read on a replica: replica/).
 */
export function createSearch(resources: SearchResources) {
  return {
    search: searchDebates(resources),
    suggestions: suggestSearches(resources),
    clearHistory: clearSearchHistory(resources),
  };
}

export type Search = ReturnType<typeof createSearch>;
