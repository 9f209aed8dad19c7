import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/core';
import {
  ATTACHMENT_BYTES_MAX,
  ATTACHMENT_EXTENSIONS,
  ATTACHMENTS_PER_DEBATE_MAX,
  type Attachment,
  type AttachmentList,
  type FetchUrlInput,
} from '@verdict/contracts';
import { sql } from 'kysely';
import type { AccountTables } from '../accounts/tables.ts';
import type { PlanGates } from '../billing/plan-gates.ts';
import { query } from '../db/kysely.ts';
import type { Database } from '../db/orm.ts';
import type { DebateAccess } from '../debates/debate-access.ts';
import type { DocumentSize } from '../routing/prompt-sizes.ts';
import { AppError, notFound, serviceBusy } from '../shared/app-error.ts';
import type { Clock } from '../shared/clock.ts';
import { ATTACHMENT_COLUMNS, toAttachment } from './attachment-views.ts';
import type { BlobStore } from './blob-store.ts';
import { SandboxesBusyError } from './extraction-sandbox.ts';
import { CONTENT_TYPES, contentMismatch, extensionOf } from './file-types.ts';
import { fetchPage, PageFetchError, type PageFetchOptions } from './page-fetch.ts';
import type { AttachmentTables } from './tables.ts';

type Tables = AttachmentTables & AccountTables;

/** An uploaded file as the route read it: the client's name and the bytes (its Content-Type is ignored). */
export type UploadedFile = { filename: string; bytes: Uint8Array };

/** A stored attachment's bytes for download, or the address of a URL attachment. */
export type AttachmentDownload =
  | { kind: 'file'; filename: string; contentType: string; bytes: Uint8Array }
  | { kind: 'url'; url: string };

const invalidFile = (message: string, code: string) =>
  new AppError('VALIDATION_ERROR', `file: ${message}`, { details: [{ path: 'file', message, code }] });

/** A file name fit to store and to send back in Content-Disposition: no path, no control characters. */
const cleanFilename = (filename: string) =>
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
  (filename.split(/[\\/]/).pop() ?? '').replace(/[\u0000-\u001f\u007f]/g, '').slice(-255);

/**
 * The caller's own ready attachments among `ids`, share-locked until the transaction ends (a source deleted
 * meanwhile cannot leave a copy without bytes). Anything else named (another user's, pending, failed,
 * missing) is a 400 naming attachmentIds, the same for each, so a caller learns nothing of others' ids.
 */
async function readyAttachmentsOf(em: EntityManager, userId: string, ids: string[]) {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return [];
  const rows = await query<Tables>(em)
    .selectFrom('attachments')
    .selectAll()
    .where('id', 'in', unique)
    .where('owner_id', '=', userId)
    .where('status', '=', 'ready')
    .orderBy('created_at', 'asc')
    .forShare()
    .execute();
  if (rows.length !== unique.length) {
    const found = new Set(rows.map((row) => row.id));
    const missing = unique.filter((id) => !found.has(id));
    throw new AppError('VALIDATION_ERROR', 'attachmentIds: not your ready attachments', {
      details: missing.map((id) => ({
        path: `attachmentIds.${ids.indexOf(id)}`,
        message: 'no ready attachment of yours has this id',
        code: 'not_found',
      })),
    });
  }
  return rows;
}

/**
 * Attachments of debates, for their owners only: upload (stored at once, text extracted later by the engine
 * nodes), list, download, delete. Someone else's debate is NOT_FOUND, as if it did not exist, except that
 * DELETE on a debate the caller may read but does not own (a workspace's, a public one) is FORBIDDEN, as
 * the spec has it. Adding attachments needs BYOK Pro; reading and deleting the ones there do not.
 */
export function createAttachments(
  db: Database,
  clock: Clock,
  plans: PlanGates,
  blobs: BlobStore,
  access: Pick<DebateAccess, 'visible'>,
  pageFetch: PageFetchOptions,
) {
  const k = (em: EntityManager = db.em()) => query<Tables>(em);

  /** The caller's own undeleted debate, locked when `lock` (so counting its attachments is exact). */
  const ownDebate = async (em: EntityManager, userId: string, debateId: string, lock: boolean) => {
    let select = k(em)
      .selectFrom('debates')
      .select(['id', 'owner_id'])
      .where('id', '=', debateId)
      .where('deleted_at', 'is', null);
    if (lock) select = select.forUpdate();
    const debate = await select.executeTakeFirst();
    if (!debate || debate.owner_id !== userId) throw notFound('Debate');
    return debate;
  };

  const assertPlan = async (em: EntityManager, userId: string) => {
    const user = await k(em).selectFrom('users').select('plan').where('id', '=', userId).executeTakeFirst();
    plans.assertIncludes(user?.plan ?? 'free', 'attachments');
  };

  const selectAttachments = (em: EntityManager) =>
    k(em)
      .selectFrom('attachments')
      .select(ATTACHMENT_COLUMNS)
      .select(sql<number | null>`length("text")`.as('text_length'));

  /** Refuses a sixth attachment; the debate row is locked, so parallel adds wait and count the same way. */
  const assertRoom = async (em: EntityManager, debateId: string) => {
    const { count } = await k(em)
      .selectFrom('attachments')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('debate_id', '=', debateId)
      .executeTakeFirstOrThrow();
    if (Number(count) >= ATTACHMENTS_PER_DEBATE_MAX) {
      throw invalidFile(`a debate has at most ${ATTACHMENTS_PER_DEBATE_MAX} attachments`, 'too_many');
    }
  };

  return {
    /**
     * What an upload must pass before its body is read: the caller's own debate (404) and BYOK Pro (402).
     * `upload` checks both again in its transaction.
     */
    assertCanAttach: async (userId: string, debateId: string): Promise<void> => {
      const em = db.em();
      await ownDebate(em, userId, debateId, false);
      await assertPlan(em, userId);
    },

    /**
     * Stores an uploaded file as a pending attachment: extension on the allow-list, at most 10 MB, bytes that
     * are what the extension says (the client's Content-Type is never trusted), and room on the debate.
     */
    upload: async (userId: string, debateId: string, file: UploadedFile): Promise<Attachment> => {
      const filename = cleanFilename(file.filename);
      const extension = extensionOf(filename);
      if (!extension) {
        throw invalidFile(`only ${ATTACHMENT_EXTENSIONS.join(', ')} files are accepted`, 'invalid_extension');
      }
      if (file.bytes.byteLength > ATTACHMENT_BYTES_MAX) {
        throw invalidFile(`a file is at most ${ATTACHMENT_BYTES_MAX} bytes`, 'too_big');
      }
      if (file.bytes.byteLength === 0) throw invalidFile('the file is empty', 'too_small');
      const mismatch = contentMismatch(extension, file.bytes);
      if (mismatch) throw invalidFile(mismatch, 'content_mismatch');
      return db.em().transactional(async (em) => {
        await ownDebate(em, userId, debateId, true);
        await assertPlan(em, userId);
        await assertRoom(em, debateId);
        const id = randomUUID();
        await k(em)
          .insertInto('attachments')
          .values({
            id,
            debate_id: debateId,
            owner_id: userId,
            kind: 'file',
            filename,
            content_type: CONTENT_TYPES[extension],
            size: file.bytes.byteLength,
            status: 'pending',
            created_at: new Date(clock.now()),
          })
          .execute();
        await blobs.put(em, id, file.bytes);
        return toAttachment(await selectAttachments(em).where('id', '=', id).executeTakeFirstOrThrow());
      });
    },

    /**
     * Copies the caller's own ready attachments onto a debate being created (attachmentIds of POST
     * /api/debates), in its transaction: the originals stay where they were. Anything else named (another
     * user's, pending, failed, missing) refuses the whole creation with 400 naming attachmentIds.
     */
    /**
     * copyToDebate's refusal without its copies: for an estimate of the create, which writes nothing. Answers
     * the size of each document the debate would carry (name or address, and extracted text), which the
     * estimate sizes the debaters' prompts by.
     */
    assertReady: async (em: EntityManager, userId: string, ids: string[]): Promise<DocumentSize[]> => {
      const rows = await readyAttachmentsOf(em, userId, ids);
      return rows.map((row) => ({
        name: (row.kind === 'url' ? (row.url ?? row.filename) : row.filename).length,
        text: row.text?.length ?? 0,
      }));
    },

    copyToDebate: async (
      em: EntityManager,
      userId: string,
      ids: string[],
      debateId: string,
    ): Promise<void> => {
      const rows = await readyAttachmentsOf(em, userId, ids);
      for (const row of rows) {
        const id = randomUUID();
        await k(em)
          .insertInto('attachments')
          .values({ ...row, id, debate_id: debateId, created_at: new Date(clock.now()) })
          .execute();
        if (row.kind === 'file') await blobs.copy(em, row.id, id);
      }
    },

    /**
     * Fetches a page (through the SSRF guard: redirects re-checked, at most 5; 5 MB; 10 s) and stores its
     * readable text as a ready URL attachment; 503 when every extraction sandbox of the process is busy. The
     * page is fetched before the transaction, so no lock is held while waiting on someone else's server; the
     * debate, the plan and the cap are checked again in it.
     */
    fetchUrl: async (userId: string, input: FetchUrlInput): Promise<Attachment> => {
      const em = db.em();
      await ownDebate(em, userId, input.debateId, false);
      await assertPlan(em, userId);
      // A full debate is refused before anything is fetched (and checked again, locked, below).
      await assertRoom(em, input.debateId);
      let page: Awaited<ReturnType<typeof fetchPage>>;
      try {
        page = await fetchPage(input.url, pageFetch);
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
      return db.em().transactional(async (tx) => {
        await ownDebate(tx, userId, input.debateId, true);
        await assertPlan(tx, userId);
        await assertRoom(tx, input.debateId);
        const id = randomUUID();
        await k(tx)
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
        return toAttachment(await selectAttachments(tx).where('id', '=', id).executeTakeFirstOrThrow());
      });
    },

    list: async (userId: string, debateId: string): Promise<AttachmentList> => {
      const em = db.em();
      await ownDebate(em, userId, debateId, false);
      const rows = await selectAttachments(em)
        .where('debate_id', '=', debateId)
        .orderBy('created_at', 'asc')
        .orderBy('id', 'asc')
        .execute();
      return { attachments: rows.map((row) => toAttachment(row)) };
    },

    download: async (userId: string, debateId: string, attachmentId: string): Promise<AttachmentDownload> => {
      const em = db.em();
      await ownDebate(em, userId, debateId, false);
      const row = await k(em)
        .selectFrom('attachments')
        .select(['kind', 'filename', 'content_type', 'url'])
        .where('id', '=', attachmentId)
        .where('debate_id', '=', debateId)
        .executeTakeFirst();
      if (!row) throw notFound('Attachment');
      if (row.kind === 'url') return { kind: 'url', url: row.url ?? '' };
      const bytes = await blobs.get(attachmentId);
      if (!bytes) throw notFound('Attachment');
      return { kind: 'file', filename: row.filename, contentType: row.content_type, bytes };
    },

    /**
     * Who may read the debate is settled first, outside the transaction: a reader who is not its owner is
     * FORBIDDEN, anyone else NOT_FOUND. The delete then locks the owner's own debate.
     */
    remove: async (userId: string, debateId: string, attachmentId: string): Promise<void> => {
      const debate = await access.visible(userId, debateId);
      if (debate.owner.id !== userId) {
        throw new AppError('FORBIDDEN', 'Only the debate owner may delete its attachments');
      }
      await db.em().transactional(async (em) => {
        await ownDebate(em, userId, debateId, true);
        const row = await k(em)
          .selectFrom('attachments')
          .select('id')
          .where('id', '=', attachmentId)
          .where('debate_id', '=', debateId)
          .executeTakeFirst();
        if (!row) throw notFound('Attachment');
        await k(em).deleteFrom('attachments').where('id', '=', attachmentId).execute();
      });
    },
  };
}

export type Attachments = ReturnType<typeof createAttachments>;
