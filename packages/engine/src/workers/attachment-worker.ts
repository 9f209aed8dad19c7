import { type BlobStore, databaseBlobStore, extractPendingAttachments } from '@verdict/core';
import { Effect } from 'effect';
import { EngineStorage } from '../services.ts';
import { storageFailure } from '../store/errors.ts';
import type { BackgroundWorker } from './background-worker.ts';

/** Attachments extracted per pass at most: a backlog of large PDFs cannot hold the worker for long. */
const PER_PASS = 20;
/** Period between passes: an upload's text is usually ready within a second. */
const EXTRACTION_INTERVAL_MS = 500;

/**
 * One pass: extracts the text of pending attachments (core's attachments/extraction.ts claims each with
 * `skip locked` and sets it ready or failed in the same transaction). Runs on engine nodes, not in the API
 * process that stored the upload, so an API crash right after answering loses nothing, and any number of
 * nodes share the work.
 */
export const attachmentPass = (store?: BlobStore) =>
  Effect.gen(function* () {
    const { db } = yield* EngineStorage;
    const blobs = store ?? databaseBlobStore(db);
    return yield* Effect.tryPromise({
      try: () => extractPendingAttachments(db, blobs, PER_PASS),
      catch: storageFailure,
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
