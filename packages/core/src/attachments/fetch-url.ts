import { randomUUID } from 'node:crypto';
import type { Attachment, FetchUrlInput } from '@verdict/contracts';
import { AppError, serviceBusy } from '../shared/app-error.ts';
import { recordAttachmentCreated } from './attachment-audit.ts';
import {
  type AttachmentResources,
  assertPlan,
  assertRoom,
  attachmentQuery,
  ownDebate,
  selectAttachments,
} from './attachment-resources.ts';
import { toAttachment } from './attachment-views.ts';
import { SandboxesBusyError } from './extraction-sandbox.ts';
import { fetchPage, PageFetchError, type PageFetchOptions } from './page-fetch.ts';

/**
 * Fetches a page (through the SSRF guard: redirects re-checked, at most 5; 5 MB; 10 s) and stores its
 * readable text as a ready URL attachment; 503 when every extraction sandbox of the process is busy. The
 * page is fetched before the transaction, so no lock is held while waiting on someone else's server; the
 * debate, the plan and the cap are checked again in it.
 */
export const fetchUrl =
  ({ db, clock, plans, pageFetch }: AttachmentResources) =>
  async (userId: string, input: FetchUrlInput): Promise<Attachment> => {
    const em = db.em();
    await ownDebate(em, userId, input.debateId, false);
    await assertPlan(plans, em, userId);
    // A full debate is refused before anything is fetched (and checked again, locked, below).
    await assertRoom(em, input.debateId);
    const page = await readPage(input.url, pageFetch);
    return db.em().transactional(async (tx) => {
      const debate = await ownDebate(tx, userId, input.debateId, true);
      await assertPlan(plans, tx, userId);
      await assertRoom(tx, input.debateId);
      const id = randomUUID();
      await attachmentQuery(tx)
        .insertInto('attachments')
        .values({
          id,
          debate_id: input.debateId,
          owner_id: userId,
          kind: 'url',
          filename: new URL(input.url).hostname.slice(0, 255),
          content_type: page.contentType.slice(0, 100),
          size: page.size,
          status: 'ready',
          text: page.text,
          url: input.url,
          created_at: new Date(clock.now()),
        })
        .execute();
      const row = await selectAttachments(tx).where('id', '=', id).executeTakeFirstOrThrow();
      await recordAttachmentCreated(tx, clock, debate, row);
      return toAttachment(row);
    });
  };

/** The page's readable text, or why not: 503 with every sandbox busy, 400 naming url for the page's fault. */
async function readPage(url: string, options: PageFetchOptions) {
  try {
    return await fetchPage(url, options);
  } catch (error) {
    if (error instanceof SandboxesBusyError) {
      throw serviceBusy('Too many pages are being read at once; retry in a moment', 5, error);
    }
    // Anything else (a crashed sandbox) is the service's fault: a 500 that shows nothing of it.
    if (!(error instanceof PageFetchError)) throw error;
    throw new AppError('VALIDATION_ERROR', `url: ${error.message}`, {
      details: [{ path: 'url', message: error.message, code: error.code }],
    });
  }
}
