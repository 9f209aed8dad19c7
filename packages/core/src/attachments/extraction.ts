import type { EntityManager } from '@mikro-orm/core';
import { query } from '../db/kysely.ts';
import type { Database } from '../db/orm.ts';
import type { BlobStore } from './blob-store.ts';
import { ExtractionError } from './extract-text.ts';
import { extractTextIsolated } from './extraction-sandbox.ts';
import type { AttachmentTables } from './tables.ts';

/** Why extraction failed when the cause is not the file's (a bug, memory): nothing internal is shown. */
const UNEXPECTED = 'The text could not be extracted';

/**
 * Extracts the text of up to `limit` pending attachments, one per transaction: each is claimed with
 * `for update skip locked` (so engine nodes passing at once take different ones), read, extracted and set
 * ready with its text or failed with the reason, in the transaction that claimed it — a node that dies
 * mid-extraction leaves it pending for the next pass. Returns how many it handled.
 */
export async function extractPendingAttachments(
  db: Database,
  blobs: BlobStore,
  limit: number,
): Promise<number> {
  const k = (em: EntityManager) => query<AttachmentTables>(em);
  let handled = 0;
  while (handled < limit) {
    let claimed: string | null = null;
    let done: boolean;
    try {
      done = await db.em().transactional(async (em) => {
        const row = await k(em)
          .selectFrom('attachments')
          .select(['id', 'content_type'])
          .where('status', '=', 'pending')
          .where('kind', '=', 'file')
          .orderBy('created_at', 'asc')
          .limit(1)
          .forUpdate()
          .skipLocked()
          .executeTakeFirst();
        if (!row) return false;
        claimed = row.id;
        const bytes = await blobs.get(row.id);
        let outcome: { status: 'ready'; text: string } | { status: 'failed'; reason: string };
        try {
          if (!bytes) throw new ExtractionError('The stored file is missing');
          outcome = { status: 'ready', text: await extractTextIsolated(row.content_type, bytes) };
        } catch (error) {
          outcome = {
            status: 'failed',
            reason: error instanceof ExtractionError ? error.message : UNEXPECTED,
          };
        }
        await k(em)
          .updateTable('attachments')
          .set(
            outcome.status === 'ready'
              ? { status: 'ready', text: outcome.text, failure_reason: null }
              : { status: 'failed', failure_reason: outcome.reason.slice(0, 500) },
          )
          .where('id', '=', row.id)
          .execute();
        return true;
      });
    } catch (error) {
      // The claimed attachment's outcome could not be stored (or its bytes not read): left pending it would
      // come first again in every later pass and stop all extraction, so it fails on its own. When even that
      // cannot be written (the database is away), the pass fails and is retried.
      const failed = claimed;
      if (!failed) throw error;
      await k(db.em())
        .updateTable('attachments')
        .set({ status: 'failed', failure_reason: UNEXPECTED })
        .where('id', '=', failed)
        .where('status', '=', 'pending')
        .execute()
        .catch(() => {
          throw error;
        });
      done = true;
    }
    if (!done) break;
    handled++;
  }
  return handled;
}
