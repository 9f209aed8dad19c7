import { type SearchResources, searchQuery } from './search-resources.ts';

/** Forgets every search of the user. */
export const clearSearchHistory =
  ({ db }: Pick<SearchResources, 'db'>) =>
  async (userId: string): Promise<void> => {
    await searchQuery(db.em()).deleteFrom('search_history').where('user_id', '=', userId).execute();
  };
