import type { EntityManager } from '@mikro-orm/core';
import { SEARCH_HISTORY_KEPT } from '@verdict/contracts';
import { sql } from 'kysely';
import { type SearchResources, searchQuery } from './search-resources.ts';

/**
 * Puts `text` at the top of the user's history (a search already there, in any case, moves up and takes
 * this spelling) and drops what falls below the newest SEARCH_HISTORY_KEPT. Call it inside the search's
 * transaction: the user's row stays locked until it commits, so concurrent searches of one user queue
 * here and the count holds.
 */
export const recordSearch =
  ({ clock }: Pick<SearchResources, 'clock'>) =>
  async (em: EntityManager, userId: string, text: string): Promise<void> => {
    const k = searchQuery(em);
    await k.selectFrom('users').select('id').where('id', '=', userId).forNoKeyUpdate().execute();
    // Strictly after the newest entry, so a clock that stands still (same millisecond) keeps the order.
    const at = sql<Date>`greatest(${new Date(clock.now())}::timestamptz,
        (select max(created_at) + interval '1 microsecond' from search_history where user_id = ${userId}))`;
    await sql`insert into search_history (user_id, query, created_at) values (${userId}, ${text}, ${at})
        on conflict (user_id, lower(query)) do update set query = excluded.query, created_at = excluded.created_at`.execute(
      k,
    );
    await k
      .deleteFrom('search_history')
      .where('user_id', '=', userId)
      .where(
        'id',
        'not in',
        k
          .selectFrom('search_history')
          .select('id')
          .where('user_id', '=', userId)
          .orderBy('created_at', 'desc')
          .limit(SEARCH_HISTORY_KEPT),
      )
      .execute();
  };
