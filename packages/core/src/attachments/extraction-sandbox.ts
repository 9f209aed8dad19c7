import { Worker } from 'node:worker_threads';
import { ExtractionError } from './extract-text.ts';

/** What one extraction may take before it is stopped and the file fails with the reason. */
export type ExtractionLimits = { timeoutMs: number; maxMemoryMb: number };

/**
 * Generous for any honest file (a 10 MB PDF of text extracts in a few seconds within ~200 MB), far below what
 * would stall or starve the process that runs it.
 */
export const EXTRACTION_LIMITS: ExtractionLimits = { timeoutMs: 30_000, maxMemoryMb: 512 };

/** What the worker answers (extraction-worker.ts): the text, or the reason fit to show (null: not the file's). */
export type ExtractionReply = { text: string } | { failure: string | null };

/**
 * extractText in a worker thread of its own, with a heap limit and a deadline: the parsers (pdf.js, mammoth,
 * Readability) run on untrusted bytes, and a file crafted to loop or to balloon must cost its own extraction,
 * not the engine node's debates or the API's requests sharing the event loop and heap. A worker per file
 * (~100 ms to start) keeps one file's state from reaching the next. Rejects with ExtractionError when the
 * file is at fault (including the limits), with a plain Error otherwise.
 */
export function extractTextIsolated(
  contentType: string,
  bytes: Uint8Array,
  limits: ExtractionLimits = EXTRACTION_LIMITS,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./extraction-worker.ts', import.meta.url), {
      workerData: { contentType, bytes },
      resourceLimits: { maxOldGenerationSizeMb: limits.maxMemoryMb },
    });
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      void worker.terminate();
      outcome();
    };
    const deadline = setTimeout(
      () =>
        settle(() =>
          reject(new ExtractionError(`Reading the file took longer than ${limits.timeoutMs / 1000} s`)),
        ),
      limits.timeoutMs,
    );
    worker.once('message', (reply: ExtractionReply) =>
      settle(() => {
        if ('text' in reply) resolve(reply.text);
        else if (reply.failure !== null) reject(new ExtractionError(reply.failure));
        else reject(new Error('text extraction failed unexpectedly'));
      }),
    );
    worker.once('error', (error: Error & { code?: string }) =>
      settle(() =>
        reject(
          error.code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? new ExtractionError(`Reading the file needs more than ${limits.maxMemoryMb} MB of memory`)
            : error,
        ),
      ),
    );
    worker.once('exit', (code) =>
      settle(() => reject(new Error(`the extraction worker exited (${code}) without an answer`))),
    );
  });
}
