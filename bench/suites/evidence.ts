import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  buildCorpus,
  type Core,
  createCore,
  type Embedder,
  EVIDENCE_PROMPT_BUDGET,
  loadConfig,
  retrievePassages,
} from '@verdict/core';
import { forgetCorpusIndexes } from '../../packages/core/src/evidence/corpus-index.ts';
import {
  insertAttachment,
  insertDebate,
  insertUser,
} from '../../packages/core/src/testing/corpus-fixtures.ts';
import { dropBenchSchema } from '../lib/drop-schema.ts';
import { documentText, seededRandom, TOPIC_NAMES, turnQuery } from '../lib/evidence-texts.ts';
import { type BenchResult, round } from '../lib/results.ts';
import type { Suite, SuiteContext } from '../lib/suite.ts';

const ATTACHMENTS = 50;
const CHARS = 50_000;
const TURNS = 200;
const WARM_UP = 10;
const DIMENSIONS = Number(process.env.BENCH_EVIDENCE_DIMENSIONS ?? 1536);
const QUESTION = 'Should we raise the price of the Pro plan by 15% next quarter?';

/** The topic of a bench document, from its name (`report-<i>.txt` is on topic i mod 10). */
const topicOf = (title: string) =>
  TOPIC_NAMES[Number(/report-(\d+)/.exec(title)?.[1] ?? -1) % TOPIC_NAMES.length];

/**
 * A stand-in for an embedding model with a real model's dimension: words hashed into DIMENSIONS buckets.
 * The cost measured is the database's (storing, ranking), not a provider's.
 */
const hashedEmbedder: Embedder = {
  model: `bench:hashed-${DIMENSIONS}`,
  relatedAbove: 0.2,
  embed: async (text) => {
    const vector = new Array<number>(DIMENSIONS).fill(0);
    for (const word of text.toLowerCase().match(/\p{L}+/gu) ?? []) {
      let hash = 2166136261;
      for (let i = 0; i < word.length; i++) hash = Math.imul(hash ^ word.charCodeAt(i), 16777619);
      vector[(hash >>> 0) % DIMENSIONS]! += 1;
    }
    return vector;
  },
};

type Database = {
  label: 'postgres' | 'pglite';
  open: () => Promise<{ core: Core; close: () => Promise<void> }>;
};

/**
 * The evidence engine's corpus at its size limit: one debate with ATTACHMENTS attachments of CHARS
 * characters each (synthetic reports, seeded) and a context. Times buildCorpus of the whole debate (split,
 * language, insert with tsvector), then retrievePassages once per simulated turn, as the engine calls it
 * (the question plus the text of a rebutted claim, EVIDENCE_PROMPT_BUDGET), one after another: full text
 * alone, then, after embedding every passage, hybrid (full text + vectors of DIMENSIONS, fused). Reports
 * the first retrieval apart (it reads the corpus into the process's index), and how many of the passages
 * returned come from documents on the claim's topic, so that speed is never bought with relevance. Both on
 * PostgreSQL (real[] vectors: no pgvector here) and on the embedded PGlite (pgvector).
 */
async function run({ settings, log }: SuiteContext): Promise<BenchResult[]> {
  const databases: Database[] = [
    {
      label: 'postgres',
      open: async () => {
        const schema = `bench_evidence_${randomBytes(5).toString('hex')}`;
        const core = await createCore(
          loadConfig({ DATABASE_URL: settings.databaseUrl, DATABASE_SCHEMA: schema, LOG_LEVEL: 'silent' }),
        );
        return {
          core,
          close: async () => {
            await dropBenchSchema(core.db, schema);
            await core.close();
          },
        };
      },
    },
    {
      label: 'pglite',
      open: async () => {
        const dir = await mkdtemp(join(tmpdir(), 'bench-evidence-'));
        const core = await createCore(
          loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent', NODE_ENV: 'production' }),
        );
        return {
          core,
          close: async () => {
            await core.close();
            await rm(dir, { recursive: true, force: true });
          },
        };
      },
    },
  ];
  const results: BenchResult[] = [];
  for (const database of databases) results.push(...(await measure(database, log)));
  return results;
}

async function measure({ label, open }: Database, log: (line: string) => void): Promise<BenchResult[]> {
  const { core, close } = await open();
  const db = core.db;
  const results: BenchResult[] = [];
  try {
    const random = seededRandom(39);
    const owner = await insertUser(db);
    const debate = await insertDebate(db, owner, {
      question: QUESTION,
      context: 'We sell a project-planning tool to agencies; the Pro plan has not changed price since 2023.',
    });
    for (let i = 0; i < ATTACHMENTS; i++) {
      await insertAttachment(db, debate, owner, {
        filename: `report-${i}.txt`,
        text: documentText(random, TOPIC_NAMES[i % TOPIC_NAMES.length] ?? 'pricing', CHARS),
        createdAt: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString(),
      });
    }
    let started = performance.now();
    await buildCorpus(db, debate);
    const buildS = (performance.now() - started) / 1000;
    const [{ passages = 0 } = {}] = await db.execute<{ passages: number }>(
      'select count(*)::int as passages from evidence_passages where debate_id = ?',
      [debate],
    );
    log(`${label}: corpus of ${passages} passages built in ${buildS.toFixed(2)} s`);
    await db.execute('analyze evidence_passages');
    const size = `${ATTACHMENTS} attachments of ${CHARS.toLocaleString('en')} characters and a context (${passages} passages)`;
    results.push({
      name: `evidence.${label}.build_corpus_s`,
      value: round(buildS),
      unit: 's',
      better: 'lower',
      detail: `buildCorpus of one debate with ${size}, without embeddings`,
    });

    const queries = Array.from({ length: TURNS + WARM_UP }, () => turnQuery(random, QUESTION));
    results.push(...(await timeTurns(label, 'full_text', db, debate, queries, null, size, log)));

    started = performance.now();
    await buildCorpus(db, debate, { embedder: hashedEmbedder });
    const embedS = (performance.now() - started) / 1000;
    log(
      `${label}: ${passages} passages embedded (${DIMENSIONS} dimensions) and stored in ${embedS.toFixed(2)} s`,
    );
    results.push({
      name: `evidence.${label}.embed_corpus_s`,
      value: round(embedS),
      unit: 's',
      better: 'lower',
      detail: `buildCorpus with an embedder on the built corpus: every passage embedded (a local hashing stand-in of ${DIMENSIONS} dimensions, no provider) and its vector stored`,
    });
    results.push(...(await timeTurns(label, 'hybrid', db, debate, queries, hashedEmbedder, size, log)));
  } finally {
    await close();
  }
  return results;
}

async function timeTurns(
  label: string,
  mode: 'full_text' | 'hybrid',
  db: Core['db'],
  debate: string,
  queries: { text: string; topic: string }[],
  embedder: Embedder | null,
  size: string,
  log: (line: string) => void,
): Promise<BenchResult[]> {
  const times: number[] = [];
  let returned = 0;
  let onTopic = 0;
  // The first retrieval of a debate in a process reads its corpus's lexemes (and vectors) once.
  forgetCorpusIndexes(db);
  let firstMs = 0;
  for (const [i, query] of queries.entries()) {
    const started = performance.now();
    const passages = await retrievePassages(db, debate, {
      query: query.text,
      budgetChars: EVIDENCE_PROMPT_BUDGET,
      embedder,
    });
    if (i === 0) firstMs = performance.now() - started;
    if (i >= WARM_UP) {
      times.push(performance.now() - started);
      returned += passages.length;
      onTopic += passages.filter((p) => topicOf(p.source.title) === query.topic).length;
    }
    if (passages.length === 0) throw new Error(`retrieval returned nothing for: ${query.text}`);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? 0;
  log(
    `${label} ${mode}: p50 ${round(at(0.5))} ms, p95 ${round(at(0.95))} ms, max ${round(at(1))} ms; ` +
      `${round(returned / times.length, 1)} passages a turn`,
  );
  const detail =
    `${TURNS} sequential retrievePassages calls (after ${WARM_UP} warm-up), each the question plus a 2–4 sentence rebutted claim, ` +
    `budget ${EVIDENCE_PROMPT_BUDGET} characters, on ${label === 'postgres' ? 'PostgreSQL (vectors as real[])' : 'PGlite (pgvector)'}; ` +
    `${mode === 'hybrid' ? `full text + ${DIMENSIONS}-dimension vectors fused by rank` : 'full text alone'}; one debate with ${size}; ` +
    `${round(returned / times.length, 1)} passages returned a turn; min ${round(at(0))} ms, max ${round(at(1))} ms`;
  const precision = onTopic / Math.max(1, returned);
  log(
    `${label} ${mode}: ${round(precision * 100, 1)}% of the passages returned are from documents on the claim's topic`,
  );
  log(`${label} ${mode}: first retrieval (the corpus's index read into the process) ${round(firstMs)} ms`);
  return [
    {
      name: `evidence.${label}.${mode}.first_ms`,
      value: round(firstMs),
      unit: 'ms',
      better: 'lower',
      detail: `the first retrievePassages of the debate in a process, which reads the corpus's lexemes${mode === 'hybrid' ? ' and vectors' : ''} into its index; ${size}`,
    },
    {
      name: `evidence.${label}.${mode}.on_topic_share`,
      value: round(precision, 3),
      unit: 'share',
      better: 'higher',
      detail: `share of the passages returned that come from documents on the rebutted claim's topic (${ATTACHMENTS / TOPIC_NAMES.length} of the ${ATTACHMENTS} documents are on each topic, so chance is ${round(1 / TOPIC_NAMES.length, 2)})`,
    },
    { name: `evidence.${label}.${mode}.p50_ms`, value: round(at(0.5)), unit: 'ms', better: 'lower', detail },
    { name: `evidence.${label}.${mode}.p95_ms`, value: round(at(0.95)), unit: 'ms', better: 'lower', detail },
  ];
}

export const suite: Suite = {
  description: `evidence: buildCorpus of a debate with ${ATTACHMENTS} attachments of ${CHARS.toLocaleString('en')} characters, then retrievePassages per turn (p50/p95), full text and hybrid, PostgreSQL and PGlite`,
  optIn: true,
  run,
};
