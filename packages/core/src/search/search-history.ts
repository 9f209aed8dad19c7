import { clearSearchHistory } from './clear-search-history.ts';
import { recordSearch } from './record-search.ts';
import type { SearchResources } from './search-resources.ts';
import { suggestSearches } from './suggest-searches.ts';

/**
 * Each user's recent searches, and the suggestions made from them and from the questions of their debates.
 */
export function createSearchHistory(resources: Pick<SearchResources, 'db' | 'clock'>) {
  return {
    record: recordSearch(resources),
    suggest: suggestSearches(resources),
    clear: clearSearchHistory(resources),
  };
}
