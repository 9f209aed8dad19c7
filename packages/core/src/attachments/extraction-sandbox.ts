import { Worker } from 'node:worker_threads';
import { ATTACHMENT_TEXT_MAX } from '@verdict/contracts';
import { createConcurrencyLimit } from '../shared/concurrency-limit.ts';
import { ExtractionError, extractText, mediaType } from './extract-text.ts';

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
 * Plain text and Markdown need no parser: strict UTF-8 decoding is linear in the bytes and allocates no
 * more than the text, so they are read in process, with no thread to start.
 */
const IN_PROCESS_TYPES = new Set(['text/plain', 'text/markdown']);
const needsSandbox = (contentType: string) => !IN_PROCESS_TYPES.has(mediaType(contentType));

/**
 * extractText in a worker thread of its own, with a heap limit and a deadline: the parsers (pdf.js, mammoth,
 * Readability) run on untrusted bytes, and a file crafted to loop or to balloon must cost its own extraction,
 * not the engine node's debates or the API's requests sharing the event loop and heap. A worker per file
 * (~50 ms to start, plus its one parser: ~50 ms for mammoth, ~80 ms for Readability) keeps one file's state
 * from reaching the next. Rejects with ExtractionError when the file is at fault (including the limits),
 * with a plain Error otherwise.
 */
export function extractTextIsolated(
  contentType: string,
  bytes: Uint8Array,
  limits: ExtractionLimits = EXTRACTION_LIMITS,
): Promise<string> {
  if (!needsSandbox(contentType)) return extractText(mediaType(contentType), bytes, ATTACHMENT_TEXT_MAX);
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./extraction-worker.ts', import.meta.url), {
      workerData: { contentType, bytes, maxChars: ATTACHMENT_TEXT_MAX },
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

/**
 * Who waits for a sandbox: `stored` files on engine nodes (served first: a claimed attachment's lease runs
 * while it waits), `page`s of fetch-url in the API (a caller is waiting on the answer).
 */
export type SandboxLane = 'stored' | 'page';

/** Every sandbox of the process is taken and the lane's line is full: nothing was started. */
export class SandboxesBusyError extends Error {
  override name = 'SandboxesBusyError';
}

export type SandboxPoolSize = { atOnce: number; queued: Record<SandboxLane, number> };

/**
 * Two sandboxes at once per process: each may hold up to 512 MB of heap plus the bytes it was given, so a
 * burst of fetch-url calls cannot start a worker per request. A page waits behind at most four others; a
 * stored file (one per engine node pass) behind at most eight.
 */
export const SANDBOX_POOL_SIZE: SandboxPoolSize = { atOnce: 2, queued: { stored: 8, page: 4 } };

/**
 * At most `size.atOnce` extractions of this pool in their sandboxes at once (plain text, read in process,
 * takes no slot); the others wait in their lane's
 * bounded line, and past it are refused at once with SandboxesBusyError (the caller answers 503 or tries
 * later). The deadline of an extraction starts when its sandbox does, not while it waits.
 */
export function createSandboxPool(
  size: SandboxPoolSize = SANDBOX_POOL_SIZE,
  limits: ExtractionLimits = EXTRACTION_LIMITS,
) {
  const slots = createConcurrencyLimit(
    size.atOnce,
    { stored: { maxQueued: size.queued.stored }, page: { maxQueued: size.queued.page } },
    () => new SandboxesBusyError('every text extraction sandbox of this process is busy'),
  );
  return {
    /** extractTextIsolated in a slot of the pool. */
    extract: (lane: SandboxLane, contentType: string, bytes: Uint8Array): Promise<string> =>
      needsSandbox(contentType)
        ? slots.run(lane, () => extractTextIsolated(contentType, bytes, limits))
        : extractTextIsolated(contentType, bytes, limits),
    /** Sandboxes running now. */
    get active() {
      return slots.active;
    },
    /** Extractions waiting in `lane`. */
    queued: (lane: SandboxLane) => slots.queued(lane),
  };
}

export type SandboxPool = ReturnType<typeof createSandboxPool>;

/** The process's pool: every extraction of this process, uploads and pages alike, goes through it. */
export const processSandboxes: SandboxPool = createSandboxPool();
