import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conceptEmbedder, insertAttachment, insertDebate, insertUser } from '../testing/corpus-fixtures.ts';
import { createTestCore, type TestCore } from '../testing/index.ts';
import { buildCorpus, type CorpusPassage, readCorpus } from './corpus.ts';

const SOURCES = 8;
const textOf = (i: number) =>
  Array.from(
    { length: 30 + i * 5 },
    (_, k) => `Source ${i} line ${k}: the pilot in region ${k % 4} kept ${k * 3} accounts active.`,
  ).join(' ');

/** What a corpus is, number by number, whoever built it. */
const shape = (corpus: CorpusPassage[]) =>
  corpus.map((p) => [p.number, p.source.title, p.start, p.end, p.text] as const);

/**
 * Two engine nodes (two cores, each with its own pool, on one schema) building the same debate's corpus
 * at the same moment, several times each: the result must be what one build alone makes.
 */
describe('building one corpus from two nodes at once (PostgreSQL)', () => {
  let first: TestCore;
  let second: TestCore;
  let owner: string;

  const debateWithSources = async () => {
    const db = first.core.db;
    const debate = await insertDebate(db, owner, { context: 'Pilot results of the regional programme.' });
    for (let i = 0; i < SOURCES; i++) {
      await insertAttachment(db, debate, owner, {
        filename: `source-${i}.txt`,
        text: textOf(i),
        createdAt: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString(),
      });
    }
    return debate;
  };

  beforeAll(async () => {
    first = await createTestCore();
    second = await createTestCore({ DATABASE_SCHEMA: first.schema });
    owner = await insertUser(first.core.db);
  }, 60_000);
  afterAll(async () => {
    await second?.core.close();
    await first?.cleanup();
  });

  it('stores each source once, numbered without gaps, as one build alone would', async () => {
    const alone = await debateWithSources();
    await buildCorpus(first.core.db, alone);
    const expected = shape(await readCorpus(first.core.db, alone));
    expect(expected.length).toBeGreaterThan(SOURCES * 2);

    const raced = await debateWithSources();
    await Promise.all(
      [first, second, first, second, first, second].map((node) => buildCorpus(node.core.db, raced)),
    );
    const corpus = await readCorpus(second.core.db, raced);
    expect(shape(corpus)).toEqual(expected);
    expect(corpus.map((p) => p.number)).toEqual(corpus.map((_, i) => i + 1));
  });

  it('embeds every passage when builds with an embedder race', async () => {
    const embedder = conceptEmbedder({ pilot: ['pilot'], accounts: ['accounts'] });
    const debate = await debateWithSources();
    await Promise.all(
      [first, second, first, second].map((node) => buildCorpus(node.core.db, debate, { embedder })),
    );
    const rows = await first.core.db.execute<{ n: number; embedded: number; max: number }>(
      `select count(*)::int as n, count(embedding)::int as embedded, max(number) as max
         from evidence_passages where debate_id = ? and embedding_model = ?`,
      [debate, embedder.model],
    );
    const corpus = await readCorpus(first.core.db, debate);
    expect(rows[0]).toEqual({ n: corpus.length, embedded: corpus.length, max: corpus.length });
  });
});
