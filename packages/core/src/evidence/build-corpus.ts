import type { EntityManager } from '@mikro-orm/core';
import { sql } from 'kysely';
import { query } from '../db/kysely.ts';
import type { Database } from '../db/orm.ts';
import { type Embedder, unitVector } from '../similar/embedder.ts';
import { type CorpusSource, stillUnstored, unstoredSources } from './corpus-sources.ts';
import { type SplitPassage, splitPassages } from './passage-splitter.ts';
import type { EvidenceTables } from './tables.ts';
import { detectTextLanguage } from './text-language.ts';

export type BuildCorpusOptions = {
  /** Where embeddings are on: passages also get vectors of this model (stored ones that lack them too). */
  embedder?: Embedder | null;
  /**
   * Told when an embedding call fails: the build stops embedding and keeps what it stored (full-text
   * retrieval works without vectors); the next build embeds what is still missing.
   */
  onEmbeddingError?: (error: unknown) => void;
};

/** A vector as a PostgreSQL array literal, for `::real[]` (pgvector's assignment cast takes it too). */
const arrayLiteral = (vector: readonly number[]) => `{${vector.join(',')}}`;

/** Rows of one insert statement: a 50,000-character attachment makes about 45 passages. */
const INSERT_BATCH = 100;
/** Embedding calls in flight together, and passages written back per statement. */
const EMBED_CALLS_AT_ONCE = 4;
const EMBED_BATCH = 32;

/**
 * Brings a debate's corpus up to date: every source not stored yet (the context, then ready attachments
 * oldest first) is split into passages numbered on from the debate's highest number, each source in a
 * transaction of its own under the debate's corpus lock, so that rounds or engine nodes building at once
 * store each source once, numbered without gaps. Sources already stored cost two queries. With an embedder,
 * then, every live passage without a vector of its model gets one.
 */
export async function buildCorpus(db: Database, debateId: string, options: BuildCorpusOptions = {}) {
  const sources = await unstoredSources(db.em(), debateId);
  for (const source of sources) {
    // Split and analysed before the lock: the lock is held only for the insert.
    const passages = splitPassages(source.text);
    if (passages.length === 0) continue;
    const language = detectTextLanguage(source.text);
    await db.em().transactional(async (em) => {
      await lockCorpus(em, debateId);
      if (!(await stillUnstored(em, debateId, source))) return;
      await insertPassages(em, debateId, source, language, passages);
    });
  }
  if (options.embedder) await embedMissing(db, debateId, options.embedder, options.onEmbeddingError);
}

/** Serialises the builds of one debate's corpus until the transaction ends. */
async function lockCorpus(em: EntityManager, debateId: string) {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`evidence-corpus:${debateId}`}, 0))`.execute(
    query(em),
  );
}

async function insertPassages(
  em: EntityManager,
  debateId: string,
  source: CorpusSource,
  language: string,
  passages: SplitPassage[],
) {
  const k = query<EvidenceTables>(em);
  const highest = await k
    .selectFrom('evidence_passages')
    .select(({ fn }) => fn.max('number').as('number'))
    .where('debate_id', '=', debateId)
    .executeTakeFirst();
  const first = (highest?.number ?? 0) + 1;
  for (let at = 0; at < passages.length; at += INSERT_BATCH) {
    const batch = passages.slice(at, at + INSERT_BATCH);
    await k
      .insertInto('evidence_passages')
      .values(
        batch.map((passage, i) => ({
          debate_id: debateId,
          number: first + at + i,
          source_kind: source.kind,
          attachment_id: source.attachmentId,
          url: source.url,
          title: source.title,
          language,
          text: passage.text,
          text_start: passage.start,
          text_end: passage.end,
          search_vector: sql<string>`to_tsvector(${language}::regconfig, ${passage.text})`,
        })),
      )
      .execute();
  }
}

/**
 * Embeds the debate's live passages that have no vector of the embedder's model, a few calls at a time,
 * writing each batch back as it is done. Two builds at once may embed the same passage twice; both write
 * the same vector.
 */
async function embedMissing(
  db: Database,
  debateId: string,
  embedder: Embedder,
  onError: (error: unknown) => void = () => {},
) {
  const missing = await query<EvidenceTables>(db.em())
    .selectFrom('evidence_passages')
    .select(['number', 'text'])
    .where('debate_id', '=', debateId)
    .where((eb) => eb.or([eb('source_kind', '=', 'context'), eb('attachment_id', 'is not', null)]))
    .where((eb) => eb.or([eb('embedding_model', 'is', null), eb('embedding_model', '!=', embedder.model)]))
    .orderBy('number')
    .execute();
  for (let at = 0; at < missing.length; at += EMBED_BATCH) {
    const batch = missing.slice(at, at + EMBED_BATCH);
    let vectors: number[][];
    try {
      vectors = await mapAtMost(EMBED_CALLS_AT_ONCE, batch, async (p) =>
        unitVector(await embedder.embed(p.text)),
      );
    } catch (error) {
      onError(error);
      return;
    }
    await sql`update evidence_passages as p
        set embedding = v.embedding::real[], embedding_model = ${embedder.model}
       from unnest(${batch.map((p) => p.number)}::int[], ${vectors.map(arrayLiteral)}::text[])
         as v(number, embedding)
      where p.debate_id = ${debateId} and p.number = v.number`.execute(query(db.em()));
  }
}

/** `work` over `items`, at most `limit` at a time, results in order; the first failure rejects. */
async function mapAtMost<T, R>(
  limit: number,
  items: readonly T[],
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
