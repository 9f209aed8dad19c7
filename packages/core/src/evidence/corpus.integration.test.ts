import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/orm.ts';
import { conceptEmbedder, insertAttachment, insertDebate, insertUser } from '../testing/corpus-fixtures.ts';
import { createTestCore, type TestCore, type TestDatabase } from '../testing/index.ts';
import { buildCorpus, type CorpusPassage, passagesByNumber, readCorpus, retrievePassages } from './corpus.ts';
import { TEXT_LANGUAGES } from './text-language.ts';

/** A long English report: one paragraph per topic, each about 900 characters, so each is about a passage. */
const TOPICS = [
  'pricing tiers and the discount ladder',
  'onboarding time for new enterprise customers',
  'server costs in the Frankfurt data centre',
  'support tickets about invoices',
  'the hiring plan for the sales team',
  'renewals of the annual plan',
];
const paragraphAbout = (topic: string, i: number) =>
  `Section ${i + 1} covers ${topic}. ` +
  Array.from(
    { length: 8 },
    (_, k) => `Figure ${i}.${k} on ${topic} is recorded in the appendix and was reviewed by the board.`,
  ).join(' ');
const REPORT = [
  ...TOPICS.map(paragraphAbout),
  'Customers cancel their subscription within a month of every price rise; the loss is largest on the monthly plan.',
].join('\n\n');
const PAGE_DE =
  'Die Kündigungen sind nach der letzten Preiserhöhung stark gestiegen, und die meisten Kunden haben nicht verlängert. ' +
  'Das Unternehmen plant deshalb für das nächste Jahr keine weitere Erhöhung der Preise.';
const CONTEXT = 'We sell a project-planning tool to small agencies; prices have not changed since 2023.';

/** Churn in other words: the vector ranking must find what full text cannot. */
const embedder = conceptEmbedder({
  churn: ['attrition', 'cancel', 'kündigung', 'leave'],
  money: ['price', 'cost', 'preis'],
});

describe.each<[string, TestDatabase, 'pgvector' | 'real-array']>([
  ['PostgreSQL', 'postgres', 'real-array'],
  ['PGlite', 'pglite', 'pgvector'],
])('a debate corpus on %s', (_name, database, vectorKind) => {
  let test: TestCore;
  let db: Database;
  let owner: string;
  let debate: string;
  let report: string;
  let page: string;

  beforeAll(async () => {
    test = await createTestCore({}, { database });
    db = test.core.db;
    owner = await insertUser(db);
    debate = await insertDebate(db, owner, { context: CONTEXT });
    page = await insertAttachment(db, debate, owner, {
      kind: 'url',
      filename: 'news.example.de',
      url: 'https://news.example.de/preise',
      text: PAGE_DE,
      createdAt: '2026-01-02T00:00:00Z',
    });
    report = await insertAttachment(db, debate, owner, {
      filename: 'report.txt',
      text: REPORT,
      createdAt: '2026-01-01T00:00:00Z',
    });
    await insertAttachment(db, debate, owner, {
      filename: 'later.txt',
      text: null,
      status: 'pending',
      createdAt: '2026-01-03T00:00:00Z',
    });
    await insertAttachment(db, debate, owner, {
      filename: 'broken.pdf',
      text: null,
      status: 'failed',
      createdAt: '2026-01-04T00:00:00Z',
    });
    await buildCorpus(db, debate);
  }, 60_000);
  afterAll(async () => {
    await test?.cleanup();
  });

  const numbersOf = (passages: CorpusPassage[]) => passages.map((p) => p.number);

  it('numbers the context first, then ready attachments oldest first, with offsets into each text', async () => {
    const corpus = await readCorpus(db, debate);
    expect(numbersOf(corpus)).toEqual(corpus.map((_, i) => i + 1));
    expect(corpus.map((p) => p.evidenceId)).toEqual(corpus.map((p) => `E${p.number}`));
    const titles = [...new Set(corpus.map((p) => p.source.title))];
    expect(titles).toEqual(['Context', 'report.txt', 'news.example.de']);
    const texts: Record<string, string> = {
      Context: CONTEXT,
      'report.txt': REPORT,
      'news.example.de': PAGE_DE,
    };
    for (const passage of corpus) {
      expect(texts[passage.source.title]?.slice(passage.start, passage.end)).toBe(passage.text);
      expect(passage.text.length).toBeLessThanOrEqual(1_800);
      expect(passage.retired).toBeUndefined();
    }
    expect(corpus.filter((p) => p.source.title === 'report.txt').length).toBeGreaterThan(3);
    expect(corpus[0]?.source).toEqual({ kind: 'context', title: 'Context' });
    expect(corpus.find((p) => p.source.title === 'report.txt')?.source).toEqual({
      kind: 'attachment',
      attachmentId: report,
      title: 'report.txt',
    });
    expect(corpus.at(-1)?.source).toEqual({
      kind: 'page',
      attachmentId: page,
      url: 'https://news.example.de/preise',
      title: 'news.example.de',
    });
  });

  it('indexes each source in the text search configuration of its language', async () => {
    const rows = await db.execute<{ title: string; language: string }>(
      `select distinct title, language from evidence_passages where debate_id = ? order by title`,
      [debate],
    );
    expect(rows).toEqual([
      { title: 'Context', language: 'english' },
      { title: 'news.example.de', language: 'german' },
      { title: 'report.txt', language: 'english' },
    ]);
    for (const language of TEXT_LANGUAGES) {
      const [row] = await db.execute<{ ok: boolean }>(
        `select to_tsvector(?::regconfig, 'x') is not null as ok`,
        [language],
      );
      expect(row?.ok).toBe(true);
    }
  });

  it('stores each source once: a later build adds only what became ready, numbered on', async () => {
    const before = await readCorpus(db, debate);
    await buildCorpus(db, debate);
    expect(await readCorpus(db, debate)).toEqual(before);
    await db.execute(
      `update attachments set status = 'ready', text = ? where debate_id = ? and filename = ?`,
      [
        'A late memo: the agencies we interviewed would accept a price rise of five percent.',
        debate,
        'later.txt',
      ],
    );
    await buildCorpus(db, debate);
    const after = await readCorpus(db, debate);
    expect(after.slice(0, before.length)).toEqual(before);
    expect(after.slice(before.length).map((p) => [p.number, p.source.title])).toEqual([
      [before.length + 1, 'later.txt'],
    ]);
  });

  it('ranks the passage that answers the query first, matching words in their other forms', async () => {
    const [first] = await retrievePassages(db, debate, {
      query: 'Which figures on server costs in Frankfurt did the board review?',
      budgetChars: 6_000,
    });
    expect(first?.text).toContain('server costs in the Frankfurt data centre');
    // German stemming: "Kündigung" and "verlängern" as the page writes them "Kündigungen", "verlängert".
    const [german] = await retrievePassages(db, debate, {
      query: 'Kündigung verlängern',
      budgetChars: 6_000,
    });
    expect(german?.source.title).toBe('news.example.de');
  });

  it('matches a long query by any of its words, within the budget and the limit', async () => {
    const question = 'Should we raise our prices by ten percent next quarter?';
    const claim =
      'The skeptic says that server costs in Frankfurt will explode once usage triples, quoting a vendor ' +
      'nobody named and a forecast of unclear provenance.';
    const query = `${question}\n${claim}`;
    // No passage has all of these words: a query that wanted them all would find nothing.
    const [{ all = -1 } = {}] = await db.execute<{ all: number }>(
      `select count(*)::int as all from evidence_passages
        where debate_id = ? and search_vector @@ plainto_tsquery(language::regconfig, ?)`,
      [debate, query],
    );
    expect(all).toBe(0);
    const found = await retrievePassages(db, debate, { query, budgetChars: 6_000 });
    expect(found[0]?.text).toContain('server costs in the Frankfurt data centre');
    expect(found.length).toBeGreaterThan(1);
    expect(found.reduce((n, p) => n + p.text.length, 0)).toBeLessThanOrEqual(6_000);
    const two = await retrievePassages(db, debate, { query, budgetChars: 6_000, limit: 2 });
    expect(numbersOf(two)).toEqual(numbersOf(found).slice(0, 2));
    const small = await retrievePassages(db, debate, { query, budgetChars: 1_000 });
    expect(small.reduce((n, p) => n + p.text.length, 0)).toBeLessThanOrEqual(1_000);
  });

  it('gives the first passages of the corpus when nothing matches the query', async () => {
    const found = await retrievePassages(db, debate, { query: 'xylophone zeppelin', budgetChars: 3_000 });
    const corpus = await readCorpus(db, debate);
    // The corpus's opening, in order; a passage too long for what is left gives way to a shorter next one.
    expect(numbersOf(found).slice(0, 3)).toEqual(numbersOf(corpus).slice(0, 3));
    expect(numbersOf(found)).toEqual([...numbersOf(found)].sort((a, b) => a - b));
    expect(found.reduce((n, p) => n + p.text.length, 0)).toBeLessThanOrEqual(3_000);
  });

  it(`embeds passages (${vectorKind}) and fuses the vector ranking with full text`, async () => {
    const [column] = await db.execute<{ type: string }>(
      `select format_type(atttypid, atttypmod) as type from pg_attribute
        where attrelid = 'evidence_passages'::regclass and attname = 'embedding'`,
    );
    expect(column?.type).toBe(vectorKind === 'pgvector' ? 'vector' : 'real[]');
    await buildCorpus(db, debate, { embedder });
    const [{ unembedded = -1 } = {}] = await db.execute<{ unembedded: number }>(
      `select count(*)::int as unembedded from evidence_passages
        where debate_id = ? and (embedding is null or embedding_model <> ?)`,
      [debate, embedder.model],
    );
    expect(unembedded).toBe(0);
    // "attrition" is in no passage: full text finds nothing, the vectors find the churn passages.
    const withVectors = await retrievePassages(db, debate, {
      query: 'attrition',
      budgetChars: 6_000,
      embedder,
    });
    expect(withVectors[0]?.text).toMatch(/cancel|Kündigungen/);
    const corpus = await readCorpus(db, debate);
    expect(numbersOf(withVectors).slice(0, 1)).not.toEqual(numbersOf(corpus).slice(0, 1));
    // Both rankings agree on the churn passage of the report: it comes first.
    const fused = await retrievePassages(db, debate, {
      query: 'customers cancel',
      budgetChars: 6_000,
      embedder,
    });
    expect(fused[0]?.text).toContain('Customers cancel their subscription');
  });

  it('ranks by full text alone when the query cannot be embedded, and says so', async () => {
    const errors: unknown[] = [];
    const failing = { ...embedder, embed: async () => Promise.reject(new Error('provider down')) };
    const found = await retrievePassages(db, debate, {
      query: 'server costs Frankfurt',
      budgetChars: 6_000,
      embedder: failing,
      onEmbeddingError: (error) => errors.push(error),
    });
    expect(found[0]?.text).toContain('Frankfurt');
    expect(errors).toHaveLength(1);
  });

  it("retires a deleted attachment's passages: kept and numbered, never retrieved, numbers not reused", async () => {
    const other = await insertDebate(db, owner, { context: CONTEXT });
    const doomed = await insertAttachment(db, other, owner, {
      filename: 'doomed.txt',
      text: 'The Frankfurt data centre will close next year and its servers move to Lisbon.',
      createdAt: '2026-01-01T00:00:00Z',
    });
    await buildCorpus(db, other);
    const before = await readCorpus(db, other);
    const doomedNumbers = numbersOf(before.filter((p) => p.source.title === 'doomed.txt'));
    expect(doomedNumbers.length).toBe(1);
    await db.execute('delete from attachments where id = ?', [doomed]);

    const after = await readCorpus(db, other);
    expect(numbersOf(after)).toEqual(numbersOf(before));
    const retired = after.filter((p) => p.retired);
    expect(numbersOf(retired)).toEqual(doomedNumbers);
    expect(retired[0]?.source).toEqual({ kind: 'attachment', title: 'doomed.txt' });
    expect(await passagesByNumber(db, other, doomedNumbers)).toEqual(retired);
    const found = await retrievePassages(db, other, {
      query: 'Frankfurt data centre servers',
      budgetChars: 6_000,
    });
    expect(numbersOf(found)).not.toContain(doomedNumbers[0]);
    expect(found.length).toBeGreaterThan(0);

    await insertAttachment(db, other, owner, {
      filename: 'next.txt',
      text: 'A new source after the deletion.',
      createdAt: '2026-01-05T00:00:00Z',
    });
    await buildCorpus(db, other);
    const latest = await readCorpus(db, other);
    expect(latest.at(-1)).toMatchObject({
      number: Math.max(...numbersOf(after)) + 1,
      source: { title: 'next.txt' },
    });
  });

  it('retrieves what later builds add and never what a deletion retires since, in the same process', async () => {
    const later = await insertDebate(db, owner, { context: CONTEXT });
    await buildCorpus(db, later, { embedder });
    const ask = (query: string) => retrievePassages(db, later, { query, budgetChars: 6_000, embedder });
    // The first retrieval reads the corpus into the process's index.
    expect((await ask('Which memo covers Osaka?')).map((p) => p.source.title)).toEqual(['Context']);
    const memo = await insertAttachment(db, later, owner, {
      filename: 'osaka.txt',
      text: 'The Osaka memo says the agencies there cancel within a week of any price rise.',
      createdAt: '2026-02-01T00:00:00Z',
    });
    await buildCorpus(db, later, { embedder });
    const found = await ask('Which memo covers Osaka?');
    expect(found[0]?.source.title).toBe('osaka.txt');
    // Found by its vector alone: "attrition" is in no passage.
    expect((await ask('attrition')).map((p) => p.source.title)).toContain('osaka.txt');
    await db.execute('delete from attachments where id = ?', [memo]);
    expect((await ask('Which memo covers Osaka?')).map((p) => p.source.title)).not.toContain('osaka.txt');
    expect((await ask('attrition')).map((p) => p.source.title)).not.toContain('osaka.txt');
  });

  it('reads passages by number, in order, leaving out numbers the debate does not have', async () => {
    const found = await passagesByNumber(db, debate, [3, 1, 3, 99_999, 0, -2, 1.5]);
    expect(numbersOf(found)).toEqual([1, 3]);
    const other = await insertDebate(db, owner);
    expect(await passagesByNumber(db, other, [1, 2])).toEqual([]);
    expect(await readCorpus(db, other)).toEqual([]);
    expect(await retrievePassages(db, other, { query: 'prices', budgetChars: 6_000 })).toEqual([]);
  });
});
