import { sql } from 'kysely';
import { query } from '../db/kysely.ts';
import type { Database } from '../db/orm.ts';
import { addToTermIndex, emptyTermIndex, type TermIndex } from './bm25.ts';

/**
 * What retrieval ranks a debate's corpus with, held in the process between turns: each passage's lexemes
 * (read once from its stored tsvector), its length, and its vector of the embedder's model. In SQL, ranking
 * the ~2,500 passages of a large corpus cost 45–120 ms a turn with ts_rank (every passage of the debate
 * shares some common word with a long query, and each is ranked), about a second with real[] vectors, and
 * 100–275 ms with PGlite's pgvector (WebAssembly); here it costs a few milliseconds (BENCHMARKS.md).
 *
 * Passages never change once stored (only their vector is added, and a deleted attachment retires them),
 * so the index is brought up to date by reading what is new: every retrieval first asks the database for
 * the highest number, the retired passages and how many vectors exist (one statement over the debate's
 * rows, by primary key), and loads the difference. Each engine node keeps its own; the database stays the
 * truth.
 */
export type CorpusIndex = {
  /** The highest passage number loaded. */
  highest: number;
  /** Characters of each loaded passage's text, in number order: what it costs of a prompt's budget. */
  chars: Map<number, number>;
  terms: TermIndex;
  /** Passages of deleted attachments, as of the last retrieval: never offered. */
  retired: Set<number>;
  /** Unit vectors of one model (the embedder's of the last retrieval that had one). */
  vectors: { model: string; byNumber: Map<number, Float32Array> } | null;
};

type Entry = { index: CorpusIndex; bytes: number; queue: Promise<unknown> };

/**
 * Memory the indexes of one process may take: the largest corpus (50 attachments of 50,000 characters,
 * ~2,500 passages, ~185,000 postings) takes ~7 MB of lexemes and ~16 MB of vectors at 1,536 dimensions
 * (measured); the least recently used debates' indexes go first.
 */
export const CORPUS_INDEX_BYTES = 96 * 1024 * 1024;

const caches = new WeakMap<Database, Map<string, Entry>>();

/** Drops every index held for `db`: the bench times a first retrieval with it. */
export function forgetCorpusIndexes(db: Database): void {
  caches.delete(db);
}

/**
 * Drops one debate's index: its job on this node ended (finished, handed back or interrupted), so its
 * memory goes now rather than when other debates' indexes push it out. A node that runs the debate again
 * reads it afresh.
 */
export function releaseCorpusIndex(db: Database, debateId: string): void {
  caches.get(db)?.delete(debateId);
}

/** The debates whose index this process holds for `db`, least recently used first. */
export function heldCorpusIndexes(db: Database): string[] {
  return [...(caches.get(db)?.keys() ?? [])];
}

/**
 * The debate's index, brought up to date with the database. `vectorModel`: also load that model's vectors
 * (stored as pgvector's type or real[], read as real[] either way); null: lexemes only. Retrievals of one
 * debate in one process take turns to update it, so a corpus is read once however many agents ask at the
 * same moment.
 */
export async function freshCorpusIndex(
  db: Database,
  debateId: string,
  vectorModel: string | null,
): Promise<CorpusIndex> {
  let cache = caches.get(db);
  if (!cache) {
    cache = new Map();
    caches.set(db, cache);
  }
  let entry = cache.get(debateId);
  if (entry) cache.delete(debateId); // re-inserted below: the map's order is the order of use
  entry ??= { index: emptyIndex(), bytes: 0, queue: Promise.resolve() };
  cache.set(debateId, entry);
  const current = entry;
  const update = current.queue.then(() => bringUpToDate(db, debateId, current, vectorModel));
  current.queue = update.catch(() => {});
  await update;
  evictBeyond(cache, CORPUS_INDEX_BYTES, debateId);
  return current.index;
}

const emptyIndex = (): CorpusIndex => ({
  highest: 0,
  chars: new Map(),
  terms: emptyTermIndex(),
  retired: new Set(),
  vectors: null,
});

async function bringUpToDate(db: Database, debateId: string, entry: Entry, vectorModel: string | null) {
  const index = entry.index;
  const state = await sql<{ highest: number | null; retired: number[] | null; vectors: number }>`
    select max(number) as highest,
           array_agg(number) filter (where source_kind <> 'context' and attachment_id is null) as retired,
           count(*) filter (where embedding_model = ${vectorModel ?? ''})::int as vectors
      from evidence_passages where debate_id = ${debateId}`.execute(query(db.em()));
  const { highest, retired, vectors } = state.rows[0] ?? { highest: null, retired: null, vectors: 0 };
  index.retired = new Set(retired ?? []);
  if ((highest ?? 0) > index.highest) entry.bytes += await loadTerms(db, debateId, index);
  if (vectorModel !== null) {
    if (index.vectors?.model !== vectorModel) {
      entry.bytes -= vectorBytes(index);
      index.vectors = { model: vectorModel, byNumber: new Map() };
    }
    if (vectors > index.vectors.byNumber.size) entry.bytes += await loadVectors(db, debateId, index.vectors);
  }
}

/** Loads the passages numbered above what the index has; returns the bytes they take, about. */
async function loadTerms(db: Database, debateId: string, index: CorpusIndex): Promise<number> {
  const rows = await sql<{
    number: number;
    language: string;
    chars: number;
    lexemes: string[] | null;
    frequencies: number[] | null;
  }>`
    select p.number, p.language, char_length(p.text) as chars, t.lexemes, t.frequencies
      from evidence_passages p
      cross join lateral (
        select array_agg(u.lexeme) as lexemes,
               array_agg(coalesce(array_length(u.positions, 1), 1)) as frequencies
          from unnest(p.search_vector) as u
      ) as t
     where p.debate_id = ${debateId} and p.number > ${index.highest}
     order by p.number`.execute(query(db.em()));
  let bytes = 0;
  for (const row of rows.rows) {
    const lexemes = row.lexemes ?? [];
    addToTermIndex(index.terms, {
      number: row.number,
      language: row.language,
      lexemes,
      frequencies: row.frequencies ?? [],
    });
    index.chars.set(row.number, Number(row.chars));
    index.highest = Math.max(index.highest, row.number);
    // Measured: ~36 bytes of heap a posting, lexeme strings and maps included.
    bytes += 36 * lexemes.length + 64;
  }
  return bytes;
}

/** Loads the model's vectors of passages the index has none for; returns the bytes they take. */
async function loadVectors(
  db: Database,
  debateId: string,
  vectors: NonNullable<CorpusIndex['vectors']>,
): Promise<number> {
  const known = [...vectors.byNumber.keys()];
  const rows = await sql<{ number: number; embedding: number[] }>`
    select number, embedding::real[] as embedding from evidence_passages
     where debate_id = ${debateId} and embedding_model = ${vectors.model}
       and not (number = any(${known}::int[]))`.execute(query(db.em()));
  let bytes = 0;
  for (const row of rows.rows) {
    const vector = Float32Array.from(row.embedding);
    vectors.byNumber.set(row.number, vector);
    bytes += vector.byteLength + 64;
  }
  return bytes;
}

const vectorBytes = (index: CorpusIndex) =>
  [...(index.vectors?.byNumber.values() ?? [])].reduce((sum, v) => sum + v.byteLength + 64, 0);

/**
 * Forgets the least recently used indexes (the map's first: each use moves one to the end) until the rest
 * fit in `limit`, never `keep`, the one just used.
 */
export function evictBeyond(cache: Map<string, { bytes: number }>, limit: number, keep: string): void {
  let total = [...cache.values()].reduce((sum, entry) => sum + entry.bytes, 0);
  for (const [debateId, entry] of cache) {
    if (total <= limit) break;
    if (debateId === keep) continue;
    cache.delete(debateId);
    total -= entry.bytes;
  }
}
