import { type BlobStore, databaseBlobStore, extractPendingAttachments } from '@verdict/core';
import { Effect } from 'effect';
import { coreClock } from '../clock.ts';
import { EngineStorage } from '../services.ts';
import type { BackgroundWorker } from './background-worker.ts';
import { BlobsUnavailable, passFailure, taggedBlobs } from './errors.ts';

/** Period between passes: an upload's text is usually ready within a second. */
const EXTRACTION_INTERVAL_MS = 500;

/**
 * One pass: extracts the text of pending attachments (core's attachments/extraction.ts claims each for a
 * while in a short transaction, extracts outside any transaction and stores the outcome if the claim still
 * holds), until none is pending or the pass's 5 s budget is spent. Runs on engine nodes, not in the API
 * process that stored the upload, so an API crash right after answering loses nothing, and any number of
 * nodes share the work.
 */
export const attachmentPass = (store?: BlobStore) =>
  Effect.gen(function* () {
    const { db } = yield* EngineStorage;
    const clock = yield* coreClock;
    // Reading the bytes fails as the blob store's (whatever holds them); the rest of the pass as storage's.
    const blobs = store ? taggedBlobs(store) : databaseBlobStore(db);
    return yield* Effect.tryPromise({
      try: () => extractPendingAttachments(db, blobs, { clock }),
      catch: passFailure(BlobsUnavailable),
    });
  });

type AttachmentPass = ReturnType<typeof attachmentPass>;

/**
 * The text extraction of attachments, as a background worker of every engine node, reading bytes from
 * `store` (the core's: files in embedded mode) or, without one, from the database.
 */
export const attachmentWorker = (
  store?: BlobStore,
): BackgroundWorker<Effect.Error<AttachmentPass>, Effect.Services<AttachmentPass>> => ({
  name: 'attachments',
  pass: attachmentPass(store),
  every: EXTRACTION_INTERVAL_MS,
});
