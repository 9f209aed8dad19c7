import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestCore,
  insertStoredDebate,
  minimalDocx,
  type TestCore,
  uniqueEmail,
} from '../testing/index.ts';
import type { BlobStore } from './blob-store.ts';
import {
  claimPendingAttachment,
  EXTRACTION_CLAIM_MS,
  extractPendingAttachments,
  storeExtraction,
} from './extraction.ts';
import { createSandboxPool } from './extraction-sandbox.ts';

// Extraction claims an attachment in a short transaction and works outside it: these tests delete what is
// being extracted, let claims run out, and leave no sandbox free, on real PostgreSQL with a clock moved by
// hand for the claims.
describe('text extraction claims', () => {
  let nowMs = Date.UTC(2027, 2, 1, 12, 0);
  const clock = { now: () => nowMs };
  let test: TestCore;
  let owner: string;

  /** A Markdown file (read in process) by default; a Word document (read in a sandbox) when asked. */
  const upload = async (text: string, kind: 'md' | 'docx' = 'md') => {
    const debateId = await insertStoredDebate(test.core, { ownerId: owner, question: 'Q?' });
    const stored = await test.core.attachments.upload(
      owner,
      debateId,
      kind === 'md'
        ? { filename: 'notes.md', bytes: new TextEncoder().encode(text) }
        : { filename: 'notes.docx', bytes: minimalDocx([text]) },
    );
    return { debateId, id: stored.id };
  };
  const rowOf = async (id: string) =>
    (
      await test.core.db.execute<{
        status: string;
        text: string | null;
        failure_reason: string | null;
        claimed_until: Date | null;
        extraction_attempts: number;
      }>(
        'select status, text, failure_reason, claimed_until, extraction_attempts from attachments where id = ?',
        [id],
      )
    )[0];
  const pass = (blobs: BlobStore = test.core.blobs, sandboxes = createSandboxPool()) =>
    extractPendingAttachments(test.core.db, blobs, { clock, sandboxes });

  beforeAll(async () => {
    test = await createTestCore();
    ({ id: owner } = await test.core.accounts.createUser({
      email: uniqueEmail('extract'),
      name: 'E',
      plan: 'byok_pro',
    }));
  });
  afterAll(async () => {
    await test?.cleanup();
  });

  it('leaves an attachment deleted while its extraction runs deleted, without the deletion waiting on it', async () => {
    const byOwner = await upload('deleted by its owner mid-extraction');
    const withDebate = await upload('deleted with its debate mid-extraction');
    // The store hands out the bytes only once each attachment is gone: the extraction runs after the delete,
    // and the delete could not have completed had the extraction held the attachment's row.
    const blobs: BlobStore = {
      ...test.core.blobs,
      get: async (id) => {
        const bytes = await test.core.blobs.get(id);
        if (id === byOwner.id) await test.core.attachments.remove(owner, byOwner.debateId, id);
        if (id === withDebate.id)
          await test.core.db.execute('delete from debates where id = ?', [withDebate.debateId]);
        return bytes;
      },
    };
    expect(await pass(blobs)).toBe(2);
    expect(await rowOf(byOwner.id)).toBeUndefined();
    expect(await rowOf(withDebate.id)).toBeUndefined();
    expect(await test.core.blobs.get(byOwner.id)).toBeNull();
  });

  it('takes a claim that ran out again, and drops the late outcome of the node that lost it', async () => {
    const { id } = await upload('claimed by a node that then stalled');
    const lost = await claimPendingAttachment(test.core.db, clock);
    expect(lost).toMatchObject({ kind: 'claimed', id, attempt: 1 });
    // While the claim holds, no other pass takes it.
    expect(await pass()).toBe(0);
    expect(await rowOf(id)).toMatchObject({ status: 'pending', extraction_attempts: 1 });
    nowMs += EXTRACTION_CLAIM_MS;
    expect(await pass()).toBe(1);
    expect(await rowOf(id)).toMatchObject({
      status: 'ready',
      text: 'claimed by a node that then stalled',
      claimed_until: null,
      extraction_attempts: 2,
    });
    if (lost?.kind !== 'claimed') throw new Error('unreachable');
    expect(await storeExtraction(test.core.db, lost, { status: 'failed', reason: 'too late' })).toBe(false);
    expect(await rowOf(id)).toMatchObject({ status: 'ready', failure_reason: null });
  });

  it('fails a file whose extraction never finished in three claims, with the reason', async () => {
    const { id } = await upload('its node dies each time');
    for (let attempt = 1; attempt <= 3; attempt++) {
      expect(await claimPendingAttachment(test.core.db, clock)).toMatchObject({ kind: 'claimed', attempt });
      nowMs += EXTRACTION_CLAIM_MS;
    }
    expect(await pass()).toBe(1);
    expect(await rowOf(id)).toMatchObject({
      status: 'failed',
      text: null,
      failure_reason: 'The text extraction did not finish in 3 attempts',
      claimed_until: null,
    });
  });

  it('gives a claim back, uncounted, when no sandbox of the process is free, and ends the pass', async () => {
    const first = await upload('waits for a sandbox', 'docx');
    const second = await upload('waits as well', 'docx');
    const none = createSandboxPool({ atOnce: 0, queued: { stored: 0, page: 0 } });
    expect(await pass(test.core.blobs, none)).toBe(0);
    for (const { id } of [first, second]) {
      expect(await rowOf(id)).toMatchObject({
        status: 'pending',
        claimed_until: null,
        extraction_attempts: 0,
      });
    }
    expect(await pass()).toBe(2);
    expect((await rowOf(second.id))?.status).toBe('ready');
  });
});
