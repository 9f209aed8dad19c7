import { sql } from 'kysely';
import { query } from '../db/kysely.ts';
import type { Database } from '../db/orm.ts';
import { type Embedder, unitVector } from '../similar/embedder.ts';
import { rankByTerms } from './bm25.ts';
import { type CorpusIndex, freshCorpusIndex } from './corpus-index.ts';
import type { CorpusPassage } from './corpus-passage.ts';
import { passagesByNumber } from './corpus-reads.ts';
import { fillBudget, fuseRankings, type RankedPassage } from './rank-fusion.ts';
import { rankByVector } from './vector-ranking.ts';

export type RetrievalRequest = {
  /** What the turn must answer: the question, plus the text of the claims the agent rebuts. */
  query: string;
  /** Characters of passage text the answer may carry at most (EVIDENCE_PROMPT_BUDGET for a debater). */
  budgetChars: number;
  /** Passages at most (default 8). */
  limit?: number;
  /** Where embeddings are on: vector ranking fused with full text. Without: full text alone. */
  embedder?: Embedder | null;
  /** Told when embedding the query fails: the retrieval then ranks by full text alone. */
  onEmbeddingError?: (error: unknown) => void;
};

export const DEFAULT_PASSAGE_LIMIT = 8;
/** How deep each ranking goes before fusion: far more than fit a prompt, few enough to stay cheap. */
const CANDIDATES = 40;

/**
 * The passages of the debate's corpus most relevant to `request.query`, best first, whose texts fit in the
 * budget: a full-text ranking (BM25 over each passage's lexemes, the query parsed in each language the
 * corpus holds, any of its words counting) fused by reciprocal rank with a vector ranking (cosine
 * similarity to the query's embedding, among passages embedded by the same model) where an embedder is
 * given. Both rank in the process, over the debate's index (corpus-index.ts says why). When nothing
 * matches at all, the corpus's first passages: an agent is never left without the evidence. Passages of
 * deleted attachments are never offered.
 */
export async function retrievePassages(
  db: Database,
  debateId: string,
  request: RetrievalRequest,
): Promise<CorpusPassage[]> {
  const limit = request.limit ?? DEFAULT_PASSAGE_LIMIT;
  if (limit <= 0 || request.budgetChars <= 0) return [];
  const vector = await queryVector(request);
  const model = vector ? (request.embedder?.model ?? null) : null;
  const index = await freshCorpusIndex(db, debateId, model);
  const skip = (number: number) => index.retired.has(number);
  const lexemes = await queryLexemes(db, request.query, [...index.terms.languages.keys()]);
  const rankings = [withLengths(index, rankByTerms(index.terms, lexemes, skip, CANDIDATES))];
  if (vector && index.vectors) {
    rankings.push(withLengths(index, rankByVector(index.vectors.byNumber, vector, skip, CANDIDATES)));
  }
  let ranked = fuseRankings(rankings);
  if (ranked.length === 0) ranked = corpusOpening(index, limit);
  const chosen = fillBudget(ranked, request.budgetChars, limit);
  const passages = await passagesByNumber(db, debateId, chosen);
  const byNumber = new Map(passages.map((passage) => [passage.number, passage]));
  return chosen.flatMap((number) => byNumber.get(number) ?? []);
}

async function queryVector(request: RetrievalRequest): Promise<number[] | null> {
  if (!request.embedder || !request.query.trim()) return null;
  try {
    return unitVector(await request.embedder.embed(request.query));
  } catch (error) {
    request.onEmbeddingError?.(error);
    return null;
  }
}

/** The query's lexemes in each of the corpus's text search configurations, as its passages were parsed. */
async function queryLexemes(db: Database, text: string, languages: string[]): Promise<Map<string, string[]>> {
  if (languages.length === 0 || !text.trim()) return new Map();
  const rows = await sql<{ language: string; lexemes: string[] }>`
    select l.language, tsvector_to_array(to_tsvector(l.language::regconfig, ${text})) as lexemes
      from (values ${sql.join(languages.map((language) => sql`(${language})`))}) as l(language)`.execute(
    query(db.em()),
  );
  return new Map(rows.rows.map((row) => [row.language, row.lexemes]));
}

/** A ranking with each passage's length, for the budget; passages the index has not loaded yet left out. */
const withLengths = (index: CorpusIndex, ranking: { number: number }[]): RankedPassage[] =>
  ranking.flatMap(({ number }) => {
    const length = index.chars.get(number);
    return length === undefined ? [] : [{ number, length }];
  });

/** The first live passages of the corpus, for a query nothing matches. */
function corpusOpening(index: CorpusIndex, limit: number): RankedPassage[] {
  const opening: RankedPassage[] = [];
  for (const [number, length] of index.chars) {
    if (opening.length >= limit * 3) break;
    if (!index.retired.has(number)) opening.push({ number, length });
  }
  return opening;
}
