import { randomBytes } from 'node:crypto';
import { createCore, databaseBlobStore, extractPendingAttachments, loadConfig } from '@verdict/core';
import { insertStoredDebate, minimalDocx, minimalPdf } from '@verdict/core/testing';
import { type BenchResult, round } from '../lib/results.ts';
import type { Suite, SuiteContext } from '../lib/suite.ts';

/** Attachments of each type stored, then extracted in passes as an engine node's worker runs them. */
const PER_TYPE = 100;

const SENTENCE =
  'The vendor offers a three-year contract with a ten percent discount and quarterly reviews. ';

/** A PDF page of about 1,500 characters, a Word document of 100 paragraphs, and a 1 MB markdown file. */
const documents = {
  pdf: { filename: 'offer.pdf', bytes: minimalPdf(SENTENCE.repeat(17)) },
  docx: { filename: 'offer.docx', bytes: minimalDocx(Array.from({ length: 100 }, () => SENTENCE)) },
  md: { filename: 'offer.md', bytes: new TextEncoder().encode(SENTENCE.repeat(11_000)) },
};

/**
 * Upload and extraction on PostgreSQL in one process: how long storing an upload takes (the 201's work:
 * checks, locked count, record and bytes in one transaction), and how many attachments of each type one
 * extraction worker makes ready per second (claim with skip locked, read the bytes, extract, store the text).
 */
async function run({ settings, log }: SuiteContext): Promise<BenchResult[]> {
  const schema = `bench_attachments_${randomBytes(5).toString('hex')}`;
  const core = await createCore(
    loadConfig({ DATABASE_URL: settings.databaseUrl, DATABASE_SCHEMA: schema, LOG_LEVEL: 'silent' }),
  );
  const results: BenchResult[] = [];
  try {
    const user = await core.accounts.createUser({
      email: `bench-${randomBytes(4).toString('hex')}@example.com`,
      password: 'benchmarking attachments today',
      name: 'bench',
    });
    await core.accounts.setPlan(user.id, 'byok_pro');
    const blobs = databaseBlobStore(core.db);
    for (const [type, document] of Object.entries(documents)) {
      log(`${type}: ${PER_TYPE} uploads of ${document.bytes.byteLength} bytes, then extraction`);
      const uploadMs: number[] = [];
      for (let i = 0; i < PER_TYPE; i += 5) {
        const debateId = await insertStoredDebate(core, { ownerId: user.id, question: 'Bench?' });
        for (let j = 0; j < 5; j++) {
          const started = performance.now();
          await core.attachments.upload(user.id, debateId, document);
          uploadMs.push(performance.now() - started);
        }
      }
      const started = performance.now();
      let handled = 0;
      while (handled < PER_TYPE)
        handled += await extractPendingAttachments(core.db, blobs, { clock: core.clock });
      const seconds = (performance.now() - started) / 1000;
      uploadMs.sort((a, b) => a - b);
      results.push(
        {
          name: `attachments.upload.${type}.p50_ms`,
          value: round(uploadMs[Math.floor(uploadMs.length / 2)] ?? 0),
          unit: 'ms',
          better: 'lower',
          detail: `${PER_TYPE} sequential uploads of ${document.bytes.byteLength} bytes through core (no HTTP)`,
        },
        {
          name: `attachments.extract.${type}.per_s`,
          value: round(PER_TYPE / seconds, 1),
          unit: 'attachments/s',
          better: 'higher',
          detail: `${PER_TYPE} pending ${type} attachments made ready by passes of one worker (batches of 20)`,
        },
      );
    }
  } finally {
    await core.db.execute(`drop schema if exists "${schema}" cascade`);
    await core.close();
  }
  return results;
}

export const suite: Suite = {
  description: 'attachments: upload storage time, text extraction per second by type',
  optIn: true,
  run,
};
