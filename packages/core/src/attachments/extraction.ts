import type { EntityManager } from '@mikro-orm/core';
import { query } from '../db/kysely.ts';
import type { Database } from '../db/orm.ts';
import type { Clock } from '../shared/clock.ts';
import type { BlobStore } from './blob-store.ts';
import { ExtractionError } from './extract-text.ts';
import { processSandboxes, SandboxesBusyError, type SandboxPool } from './extraction-sandbox.ts';
import type { AttachmentTables } from './tables.ts';

/** Why extraction failed when the cause is not the file's (a bug, memory): nothing internal is shown. */
const UNEXPECTED = 'The text could not be extracted';

/**
 * How long a claim is its node's: the sandbox's 30 s deadline, a wait for a sandbox of the process and the
 * reads and writes around it, with room to spare. A node that dies holding a claim delays that file by this
 * much, no more.
 */
export const EXTRACTION_CLAIM_MS = 2 * 60_000;
/** Claims a file may have: one whose extraction never finishes (its node dies each time) then fails. */
export const EXTRACTION_ATTEMPTS_MAX = 3;
/**
 * A pass claims no further attachment after this long (wall time: it bounds how long a stopping node waits
 * for the pass, which an injected clock does not change; the extraction in hand may add its 30 s).
 */
export const EXTRACTION_PASS_BUDGET_MS = 5_000;

/** One pending attachment claimed for extraction: `attempt` identifies the claim (claims count up). */
export type ExtractionClaim = { id: string; contentType: string; attempt: number };

type Outcome = { status: 'ready'; text: string } | { status: 'failed'; reason: string };

const k = (em: EntityManager) => query<AttachmentTables>(em);

/**
 * Claims the oldest pending file attachment no live claim holds, in a transaction of its own that ends at
 * once (`for update skip locked`, so nodes claiming together take different ones): its claim runs until
 * `now + claimMs` and its attempt count goes up. One that has had EXTRACTION_ATTEMPTS_MAX claims already is
 * failed there instead ('gave_up'). Null when there is nothing to claim.
 */
export async function claimPendingAttachment(
  db: Database,
  clock: Clock,
  claimMs = EXTRACTION_CLAIM_MS,
): Promise<(ExtractionClaim & { kind: 'claimed' }) | { kind: 'gave_up'; id: string } | null> {
  return db.em().transactional(async (em) => {
    const now = new Date(clock.now());
    const row = await k(em)
      .selectFrom('attachments')
      .select(['id', 'content_type', 'extraction_attempts'])
      .where('status', '=', 'pending')
      .where('kind', '=', 'file')
      .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<=', now.toISOString())]))
      .orderBy('created_at', 'asc')
      .limit(1)
      .forUpdate()
      .skipLocked()
      .executeTakeFirst();
    if (!row) return null;
    if (row.extraction_attempts >= EXTRACTION_ATTEMPTS_MAX) {
      await k(em)
        .updateTable('attachments')
        .set({
          status: 'failed',
          failure_reason: `The text extraction did not finish in ${row.extraction_attempts} attempts`,
          claimed_until: null,
        })
        .where('id', '=', row.id)
        .execute();
      return { kind: 'gave_up', id: row.id };
    }
    const attempt = row.extraction_attempts + 1;
    await k(em)
      .updateTable('attachments')
      .set({ claimed_until: new Date(now.getTime() + claimMs), extraction_attempts: attempt })
      .where('id', '=', row.id)
      .execute();
    return { kind: 'claimed', id: row.id, contentType: row.content_type, attempt };
  });
}

/**
 * Stores what the extraction of `claim` came to — only while the attachment still exists, is pending and the
 * claim is still this one (no other node has claimed it since): a deleted attachment stays deleted, and a
 * late node's outcome never overwrites a newer claim's. Says whether it was stored.
 */
export async function storeExtraction(db: Database, claim: ExtractionClaim, outcome: Outcome) {
  const stored = await k(db.em())
    .updateTable('attachments')
    .set(
      outcome.status === 'ready'
        ? { status: 'ready', text: outcome.text, failure_reason: null, claimed_until: null }
        : { status: 'failed', failure_reason: outcome.reason.slice(0, 500), claimed_until: null },
    )
    .where('id', '=', claim.id)
    .where('status', '=', 'pending')
    .where('extraction_attempts', '=', claim.attempt)
    .executeTakeFirst();
  return stored.numUpdatedRows > 0n;
}

/** Gives a claim back unused, its attempt not counted (no sandbox was free): due again at once. */
const releaseClaim = (db: Database, claim: ExtractionClaim) =>
  k(db.em())
    .updateTable('attachments')
    .set({ claimed_until: null, extraction_attempts: claim.attempt - 1 })
    .where('id', '=', claim.id)
    .where('status', '=', 'pending')
    .where('extraction_attempts', '=', claim.attempt)
    .execute();

export type ExtractionPassOptions = {
  clock: Clock;
  claimMs?: number;
  budgetMs?: number;
  /** Where files are read: the process's sandbox pool unless a test gives its own. */
  sandboxes?: SandboxPool;
};

/**
 * One pass of text extraction: claim a pending attachment (a short transaction), read its bytes and extract
 * its text in a sandbox outside any transaction, store the outcome if the claim still holds; again, until
 * nothing is pending or the pass's budget is spent. No lock is held while a file is read, so deleting the
 * attachment or its debate never waits on an extraction, and a stopping node waits for one extraction at
 * most. A node that dies mid-extraction leaves a claim that runs out, and any node takes the file again.
 * Returns how many attachments it handled.
 *
 * A file at fault fails with the reason; a sandbox that failed on its own with a generic one. Bytes that
 * could not be read (the store is away) leave the claim to run out: the file is tried again later, and
 * fails after EXTRACTION_ATTEMPTS_MAX claims. An outcome that cannot be stored fails the pass (retried).
 */
export async function extractPendingAttachments(
  db: Database,
  blobs: BlobStore,
  options: ExtractionPassOptions,
): Promise<number> {
  const started = Date.now();
  const budgetMs = options.budgetMs ?? EXTRACTION_PASS_BUDGET_MS;
  const sandboxes = options.sandboxes ?? processSandboxes;
  let handled = 0;
  do {
    const claim = await claimPendingAttachment(db, options.clock, options.claimMs);
    if (!claim) break;
    handled++;
    if (claim.kind === 'gave_up') continue;
    let bytes: Uint8Array | null;
    try {
      bytes = await blobs.get(claim.id);
    } catch {
      continue;
    }
    let outcome: Outcome;
    try {
      if (!bytes) throw new ExtractionError('The stored file is missing');
      outcome = { status: 'ready', text: await sandboxes.extract('stored', claim.contentType, bytes) };
    } catch (error) {
      if (error instanceof SandboxesBusyError) {
        await releaseClaim(db, claim);
        handled--;
        break;
      }
      outcome = { status: 'failed', reason: error instanceof ExtractionError ? error.message : UNEXPECTED };
    }
    await storeExtraction(db, claim, outcome);
  } while (Date.now() - started < budgetMs);
  return handled;
}
