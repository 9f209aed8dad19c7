import type { BlobStore, Mailer } from '@verdict/core';
import { Data } from 'effect';
import { storageFailure } from '../store/errors.ts';

/**
 * What a background worker's pass fails with, by what failed: storage (store/errors.ts) or the worker's own
 * outside party. Each worker tags what its party throws as it leaves the party (the wrappers below), so the
 * pass's failure says which one it was instead of calling everything a storage failure.
 */

/** The SMTP server refused a message or could not be reached (mail worker). */
export class MailUnavailable extends Data.TaggedError('MailUnavailable')<{ readonly cause: unknown }> {}

/** The attachment bytes could not be read from their store (files, in embedded mode) (attachment worker). */
export class BlobsUnavailable extends Data.TaggedError('BlobsUnavailable')<{ readonly cause: unknown }> {}

/** The mailer, its sends failing as MailUnavailable. */
export const taggedMailer = (mailer: Mailer): Mailer => ({
  send: (message) =>
    mailer.send(message).catch((cause: unknown) => {
      throw new MailUnavailable({ cause });
    }),
  close: () => mailer.close(),
});

/** The blob store, its reads failing as BlobsUnavailable. */
export const taggedBlobs = (blobs: BlobStore): BlobStore => ({
  ...blobs,
  get: (attachmentId) =>
    blobs.get(attachmentId).catch((cause: unknown) => {
      throw new BlobsUnavailable({ cause });
    }),
});

/** A failed pass's cause: the worker's own party's failure as tagged, anything else as storage's. */
export const passFailure =
  <Own extends MailUnavailable | BlobsUnavailable>(own: abstract new (...args: never[]) => Own) =>
  (cause: unknown) =>
    cause instanceof own ? (cause as Own) : storageFailure(cause);
