import { dateFromInstant, dateToEndOfDay, type SearchQuery } from '@verdict/contracts';
import { type Expression, type ExpressionBuilder, type SqlBool, sql } from 'kysely';
import type { DebateTables } from '../debates/tables.ts';
import { storableInstant } from '../shared/storable-instant.ts';
import { containing } from './like-pattern.ts';

type Debates = ExpressionBuilder<DebateTables, 'debates'>;

/**
 * The document full-text search ranks: question and context, English stemming. Written exactly as the
 * expression of debates_search_fts_index (migration 0014), or PostgreSQL would not use the index.
 */
export const DOCUMENT = sql`to_tsvector('english', "debates"."question" || ' ' || coalesce("debates"."context", ''))`;

/**
 * The query text as a full-text query: websearch syntax ("quoted phrase", or, -not) never fails to parse,
 * whatever the user typed. Text of stop words only makes an empty query, which matches nothing.
 */
export const tsQuery = (q: string) => sql`websearch_to_tsquery('english', ${q})`;

/** The verdict's confidence (0–1) when it is a number, else null. */
export const CONFIDENCE = sql<
  number | null
>`case when jsonb_typeof("debates"."verdict"->'confidence') = 'number'
  then ("debates"."verdict"->>'confidence')::float8 end`;

/** A debate the query text finds: the text inside its question or context (any case), or a full-text match. */
export function textMatches(eb: Debates, q: string): Expression<SqlBool> {
  const pattern = containing(q);
  return eb.or([
    eb('debates.question', 'ilike', pattern),
    eb('debates.context', 'ilike', pattern),
    sql<SqlBool>`${DOCUMENT} @@ ${tsQuery(q)}`,
  ]);
}

export type SearchFilters = Omit<SearchQuery, 'q' | 'sort' | 'page' | 'limit'>;

/** The caller's own, undeleted debates that pass every filter given (filters combine with AND). */
export function filtersOf(eb: Debates, userId: string, filters: SearchFilters): Expression<SqlBool> {
  const conditions: Expression<SqlBool>[] = [
    eb('debates.owner_id', '=', userId),
    eb('debates.deleted_at', 'is', null),
  ];
  if (filters.type === 'verdicts') {
    conditions.push(eb('debates.status', '=', 'completed'), eb('debates.verdict', 'is not', null));
  }
  if (filters.status) conditions.push(eb('debates.status', 'in', filters.status));
  if (filters.mode) conditions.push(eb('debates.mode', 'in', filters.mode));
  if (filters.dateFrom)
    conditions.push(eb('debates.created_at', '>=', storableInstant(dateFromInstant(filters.dateFrom))));
  if (filters.dateTo) {
    // Before the next day starts: stored times have microseconds, finer than its last millisecond.
    const nextDay = new Date(dateToEndOfDay(filters.dateTo).getTime() + 1);
    conditions.push(eb('debates.created_at', '<', storableInstant(nextDay)));
  }
  if (filters.minConfidence !== undefined) {
    conditions.push(sql<SqlBool>`${CONFIDENCE} >= ${filters.minConfidence / 100}`);
  }
  if (filters.hasVerdict !== undefined) {
    conditions.push(eb('debates.verdict', filters.hasVerdict ? 'is not' : 'is', null));
  }
  return eb.and(conditions);
}
