import type { EntityManager } from '@mikro-orm/core';
import type {
  DebateMode,
  DebateStatus,
  Recommendation,
  SearchQuery,
  SearchResult,
  SearchResults,
} from '@verdict/contracts';
import { query } from '../db/kysely.ts';
import type { DebateTables } from '../debates/tables.ts';
import { readAs } from '../replica/read-as.ts';
import { isLastPage, pageOf } from '../shared/paging.ts';
import { recordSearch } from './record-search.ts';
import { keywordStatements, semanticStatement } from './search-queries.ts';
import type { SearchResources } from './search-resources.ts';

/**
 * The caller's debates matching `input.q`, one page, and the search recorded in their history: the page
 * read where read routing sends it (a replica, possibly), the history written on the primary after it.
 */
export const searchDebates = (resources: SearchResources) => {
  const { db } = resources;
  const record = recordSearch(resources);
  return async (userId: string, input: SearchQuery): Promise<SearchResults> => {
    const { total, results } = await readAs(resources, userId, (read) =>
      keywordPage(read.em(), userId, input),
    );
    await db.em().transactional((em) => record(em, userId, input.q));
    const numbers = pageOf(input, total);
    // Semantic hits follow the keyword matches where those end: on their last page (page 1 when none).
    // Outside the transaction: an embedding lookup may take a while, and holds no rows.
    const semantic = isLastPage(numbers) ? await semanticOnly(resources, userId, input) : [];
    return { results: [...results, ...semantic], ...numbers };
  };
};

const debateQuery = (em: EntityManager) => query<DebateTables>(em);

const keywordPage = async (em: EntityManager, userId: string, input: SearchQuery) => {
  const statements = keywordStatements(debateQuery(em), userId, input);
  const { total } = await statements.count.executeTakeFirstOrThrow();
  const rows = await statements.page.execute();
  return { total, results: rows.map(toResult) };
};

/** The semantic hits that pass the filters and that keyword matching did not find, closest first. */
const semanticOnly = async (resources: SearchResources, userId: string, input: SearchQuery) => {
  const { semanticHits } = resources;
  const { q, sort: _sort, page: _page, limit, ...filters } = input;
  if (!semanticHits) return [];
  const hits = await semanticHits(userId, q, limit);
  if (hits.length === 0) return [];
  const ids = [...new Set(hits.map((hit) => hit.id))];
  const rows = await readAs(resources, userId, (db) =>
    semanticStatement(debateQuery(db.em()), userId, q, filters, ids).execute(),
  );
  const byId = new Map(rows.map((row) => [row.id, row]));
  return hits
    .flatMap((hit) => {
      const row = byId.get(hit.id);
      byId.delete(hit.id); // a hit named twice shows once
      return row ? [{ ...toResult(row), relevanceScore: null }] : [];
    })
    .slice(0, limit);
};

type ResultRow = {
  id: string;
  question: string;
  status: string;
  mode: string | null;
  created_at: string;
  completed_at: string | null;
  recommendation: string | null;
  one_liner: string | null;
  confidence: number | null;
  relevance: number | null;
};

function toResult(row: ResultRow): SearchResult {
  return {
    id: row.id,
    question: row.question,
    status: row.status as DebateStatus,
    mode: row.mode as DebateMode | null,
    createdAt: new Date(row.created_at).toISOString(),
    completedAt: row.completed_at === null ? null : new Date(row.completed_at).toISOString(),
    recommendation: row.recommendation as Recommendation | null,
    oneLiner: row.one_liner,
    confidence: row.confidence === null ? null : Number(row.confidence),
    relevanceScore: row.relevance === null ? null : Number(row.relevance),
  };
}
