import { router } from '../../trpc/init.ts';
import { clearHistory } from './clear-history.ts';
import { search } from './search.ts';
import { suggestions } from './suggestions.ts';

export const searchRouter = router({
  search,
  suggestions,
  clearHistory,
});
