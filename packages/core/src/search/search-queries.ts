import type { SearchQuery } from '@verdict/contracts';
import { type ExpressionBuilder, type Kysely, type SqlBool, sql } from 'kysely';
import type { DebateTables } from '../debates/tables.ts';
import { offsetOf } from '../shared/paging.ts';
import {
  CONFIDENCE,
  DOCUMENT,
  filtersOf,
  type SearchFilters,
  textMatches,
  tsQuery,
} from './search-filters.ts';

type Debates = ExpressionBuilder<DebateTables, 'debates'>;

/** ts_rank's normalization 32 scales a rank r to r / (r + 1): 0–1, order kept. Null without a full-text match. */
const relevance = (q: string) =>
  sql<number | null>`case when ${DOCUMENT} @@ ${tsQuery(q)} then ts_rank(${DOCUMENT}, ${tsQuery(q)}, 32) end`;

const resultColumns = (eb: Debates, q: string) =>
  [
    'debates.id',
    'debates.question',
    'debates.status',
    'debates.mode',
    'debates.created_at',
    'debates.completed_at',
    sql<string | null>`"debates"."verdict"->>'recommendation'`.as('recommendation'),
    sql<string | null>`"debates"."verdict"->>'oneLiner'`.as('one_liner'),
    CONFIDENCE.as('confidence'),
    relevance(q).as('relevance'),
    eb.ref('debates.view_count').as('view_count'),
  ] as const;

/**
 * The two statements of a keyword search: how many match, and the requested page in the requested order
 * (ties: newest first, then by id, so pages never overlap). Built apart from running them so that the
 * benchmark can EXPLAIN exactly these.
 */
export function keywordStatements(k: Kysely<DebateTables>, userId: string, input: SearchQuery) {
  const { q, sort, page, limit, ...filters } = input;
  const matching = (eb: Debates) => eb.and([filtersOf(eb, userId, filters), textMatches(eb, q)]);
  const count = k.selectFrom('debates').select(sql<number>`count(*)::int`.as('total')).where(matching);
  let rows = k
    .selectFrom('debates')
    .select((eb) => resultColumns(eb, q))
    .where(matching);
  if (sort === 'relevance') rows = rows.orderBy(sql`coalesce(${relevance(q)}, 0)`, 'desc');
  if (sort === 'popularity') rows = rows.orderBy('debates.view_count', 'desc');
  const pageRows = rows
    .orderBy('debates.created_at', 'desc')
    .orderBy('debates.id', 'desc')
    .limit(limit)
    .offset(offsetOf({ page, limit }));
  return { count, page: pageRows };
}

/** The debates among `ids` that pass the filters but that the text does not match (semantic-only hits). */
export function semanticStatement(
  k: Kysely<DebateTables>,
  userId: string,
  q: string,
  filters: SearchFilters,
  ids: string[],
) {
  return k
    .selectFrom('debates')
    .select((eb) => resultColumns(eb, q))
    .where((eb) =>
      eb.and([
        eb('debates.id', 'in', ids),
        filtersOf(eb, userId, filters),
        // `is not true`: a null context makes the match null rather than false.
        sql<SqlBool>`(${textMatches(eb, q)}) is not true`,
      ]),
    );
}
