import type { EntityManager } from '@mikro-orm/core';
import { SEARCH_HISTORY_KEPT, SUGGESTIONS_MAX, type Suggestion, type Suggestions } from '@verdict/contracts';
import { sql } from 'kysely';
import type { AccountTables } from '../accounts/tables.ts';
import { query } from '../db/kysely.ts';
import type { Database } from '../db/orm.ts';
import type { DebateTables } from '../debates/tables.ts';
import type { Clock } from '../shared/clock.ts';
import { startingWith } from './like-pattern.ts';
import type { SearchTables } from './tables.ts';

type Tables = SearchTables & DebateTables & AccountTables;

/**
 * Each user's recent searches, and the suggestions made from them and from the questions of their debates.
 */
export function createSearchHistory(db: Database, clock: Clock) {
  const k = (em: EntityManager = db.em()) => query<Tables>(em);

  return {
    /**
     * Puts `text` at the top of the user's history (a search already there, in any case, moves up and takes
     * this spelling) and drops what falls below the newest SEARCH_HISTORY_KEPT. Call it inside the search's
     * transaction: the user's row stays locked until it commits, so concurrent searches of one user queue
     * here and the count holds.
     */
    record: async (em: EntityManager, userId: string, text: string): Promise<void> => {
      await k(em).selectFrom('users').select('id').where('id', '=', userId).forNoKeyUpdate().execute();
      // Strictly after the newest entry, so a clock that stands still (same millisecond) keeps the order.
      const at = sql<Date>`greatest(${new Date(clock.now())}::timestamptz,
        (select max(created_at) + interval '1 microsecond' from search_history where user_id = ${userId}))`;
      await sql`insert into search_history (user_id, query, created_at) values (${userId}, ${text}, ${at})
        on conflict (user_id, lower(query)) do update set query = excluded.query, created_at = excluded.created_at`.execute(
        k(em),
      );
      await k(em)
        .deleteFrom('search_history')
        .where('user_id', '=', userId)
        .where(
          'id',
          'not in',
          k(em)
            .selectFrom('search_history')
            .select('id')
            .where('user_id', '=', userId)
            .orderBy('created_at', 'desc')
            .limit(SEARCH_HISTORY_KEPT),
        )
        .execute();
    },

    /**
     * Without a prefix (or a blank one): recent searches, newest first. With one: earlier searches starting
     * with it (any case), newest first, then the questions of the user's undeleted debates starting with it,
     * newest debate first, one of each text; SUGGESTIONS_MAX in all.
     */
    suggest: async (userId: string, prefix?: string): Promise<Suggestions> => {
      const start = prefix?.trim() ?? '';
      const history = await k()
        .selectFrom('search_history')
        .select('query')
        .where('user_id', '=', userId)
        .$if(start !== '', (qb) => qb.where('query', 'ilike', startingWith(start)))
        .orderBy('created_at', 'desc')
        .limit(SUGGESTIONS_MAX)
        .execute();
      const suggestions: Suggestion[] = history.map((row) => ({ text: row.query, source: 'history' }));
      if (start === '' || suggestions.length >= SUGGESTIONS_MAX) return { suggestions };
      const questions = await k()
        .selectFrom('debates')
        .select('question')
        .where('owner_id', '=', userId)
        .where('deleted_at', 'is', null)
        .where('question', 'ilike', startingWith(start))
        .groupBy('question')
        .orderBy(sql`max(created_at)`, 'desc')
        .orderBy('question')
        .limit(SUGGESTIONS_MAX * 2)
        .execute();
      const taken = new Set(suggestions.map((s) => s.text.toLowerCase()));
      for (const { question } of questions) {
        if (suggestions.length >= SUGGESTIONS_MAX) break;
        if (taken.has(question.toLowerCase())) continue;
        taken.add(question.toLowerCase());
        suggestions.push({ text: question, source: 'debate' });
      }
      return { suggestions };
    },

    /** Forgets every search of the user. */
    clear: async (userId: string): Promise<void> => {
      await k().deleteFrom('search_history').where('user_id', '=', userId).execute();
    },
  };
}
