import { SUGGESTIONS_MAX, type Suggestion, type Suggestions } from '@verdict/contracts';
import { sql } from 'kysely';
import { startingWith } from './like-pattern.ts';
import { type SearchResources, searchQuery } from './search-resources.ts';

/**
 * Without a prefix (or a blank one): recent searches, newest first. With one: earlier searches starting
 * with it (any case), newest first, then the questions of the user's undeleted debates starting with it,
 * newest debate first, one of each text; SUGGESTIONS_MAX in all.
 */
export const suggestSearches =
  ({ db }: Pick<SearchResources, 'db'>) =>
  async (userId: string, prefix?: string): Promise<Suggestions> => {
    const start = prefix?.trim() ?? '';
    const history = await searchQuery(db.em())
      .selectFrom('search_history')
      .select('query')
      .where('user_id', '=', userId)
      .$if(start !== '', (qb) => qb.where('query', 'ilike', startingWith(start)))
      .orderBy('created_at', 'desc')
      .limit(SUGGESTIONS_MAX)
      .execute();
    const suggestions: Suggestion[] = history.map((row) => ({ text: row.query, source: 'history' }));
    if (start === '' || suggestions.length >= SUGGESTIONS_MAX) return { suggestions };
    const questions = await searchQuery(db.em())
      .selectFrom('debates')
      .select('question')
      .where('owner_id', '=', userId)
      .where('deleted_at', 'is', null)
      // ILIKE written as what it is in a UTF-8 database (PostgreSQL's like.c lower-cases both sides), the
      // form debates_owner_question_prefix_index answers with a range of the owner's questions. As ILIKE
      // the trigram index was chosen instead, reading every account's questions that hold the prefix's
      // trigrams anywhere (142,857 of 1,000,000 debates for "lis").
      .where(sql`lower(question)`, 'like', sql<string>`lower(${startingWith(start)})`)
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
  };
