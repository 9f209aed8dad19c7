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
import type { Database } from '../db/orm.ts';
import type { DebateTables } from '../debates/tables.ts';
import type { Clock } from '../shared/clock.ts';
import { isLastPage, pageOf } from '../shared/paging.ts';
import { createSearchHistory } from './search-history.ts';
import { keywordStatements, semanticStatement } from './search-queries.ts';

/**
 * Debates of the user closest in meaning to `q`, best first, as many as `limit` (similar/: embeddings).
 * Search appends those its keyword matching missed.
 */
export type SemanticHits = (
  userId: string,
  q: string,
  limit: number,
) => Promise<{ id: string; similarity: number }[]>;

export type SearchOptions = {
  /** Where semantic hits come from; none: search is keyword and full text only. */
  semanticHits?: SemanticHits;
};

/**
 * Search of the caller's own debates (GET /api/search). A debate matches when its question or context
 * contains the text (any case, wildcards taken literally) or matches it as full text (English stemming);
 * `relevance` sorts by full-text rank, keyword-only matches last. Semantic hits (optional) follow the
 * keyword matches on the page where those end and are not counted in total. Every search is recorded in the
 * caller's history, in the same transaction.
 */
export function createSearch(db: Database, clock: Clock, options: SearchOptions = {}) {
  const k = (em: EntityManager = db.em()) => query<DebateTables>(em);
  const history = createSearchHistory(db, clock);

  const keywordPage = async (em: EntityManager, userId: string, input: SearchQuery) => {
    const statements = keywordStatements(k(em), userId, input);
    const { total } = await statements.count.executeTakeFirstOrThrow();
    const rows = await statements.page.execute();
    return { total, results: rows.map(toResult) };
  };

  /** The semantic hits that pass the filters and that keyword matching did not find, closest first. */
  const semanticOnly = async (userId: string, input: SearchQuery) => {
    const { q, sort: _sort, page: _page, limit, ...filters } = input;
    if (!options.semanticHits) return [];
    const hits = await options.semanticHits(userId, q, limit);
    if (hits.length === 0) return [];
    const ids = [...new Set(hits.map((hit) => hit.id))];
    const rows = await semanticStatement(k(), userId, q, filters, ids).execute();
    const byId = new Map(rows.map((row) => [row.id, row]));
    return hits
      .flatMap((hit) => {
        const row = byId.get(hit.id);
        byId.delete(hit.id); // a hit named twice shows once
        return row ? [{ ...toResult(row), relevanceScore: null }] : [];
      })
      .slice(0, limit);
  };

  return {
    search: async (userId: string, input: SearchQuery): Promise<SearchResults> => {
      const { total, results } = await db.em().transactional(async (em) => {
        const found = await keywordPage(em, userId, input);
        await history.record(em, userId, input.q);
        return found;
      });
      const numbers = pageOf(input, total);
      // Semantic hits follow the keyword matches where those end: on their last page (page 1 when none).
      // Outside the transaction: an embedding lookup may take a while, and holds no rows.
      const semantic = isLastPage(numbers) ? await semanticOnly(userId, input) : [];
      return { results: [...results, ...semantic], ...numbers };
    },

    suggestions: history.suggest,
    clearHistory: history.clear,
  };
}

export type Search = ReturnType<typeof createSearch>;

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
