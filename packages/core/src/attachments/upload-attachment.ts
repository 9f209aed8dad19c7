import { randomUUID } from 'node:crypto';
import { ATTACHMENT_BYTES_MAX, ATTACHMENT_EXTENSIONS, type Attachment } from '@verdict/contracts';
import { recordAttachmentCreated } from './attachment-audit.ts';
import {
  type AttachmentResources,
  assertPlan,
  assertRoom,
  attachmentQuery,
  invalidFile,
  ownDebate,
  selectAttachments,
} from './attachment-resources.ts';
import { toAttachment } from './attachment-views.ts';
import { CONTENT_TYPES, contentMismatch, extensionOf } from './file-types.ts';

/** An uploaded file as the route read it: the client's name and the bytes (its Content-Type is ignored). */
export type UploadedFile = { filename: string; bytes: Uint8Array };

/**
 * Stores an uploaded file as a pending attachment: extension on the allow-list, at most 10 MB, bytes that
 * are what the extension says (the client's Content-Type is never trusted), and room on the debate.
 */
export const uploadAttachment =
  ({ db, clock, plans, blobs }: AttachmentResources) =>
  async (userId: string, debateId: string, file: UploadedFile): Promise<Attachment> => {
    const { filename, extension } = acceptedFile(file);
    return db.em().transactional(async (em) => {
      const debate = await ownDebate(em, userId, debateId, true);
      await assertPlan(plans, em, userId);
      await assertRoom(em, debateId);
      const id = randomUUID();
      await attachmentQuery(em)
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
      const row = await selectAttachments(em).where('id', '=', id).executeTakeFirstOrThrow();
      await recordAttachmentCreated(em, clock, debate, row);
      return toAttachment(row);
    });
  };

/** The file's clean name and its extension, or a 400 naming what is wrong with it. */
function acceptedFile(file: UploadedFile) {
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
  return { filename, extension };
}

/** A file name fit to store and to send back in Content-Disposition: no path, no control characters. */
const cleanFilename = (filename: string) =>
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
  (filename.split(/[\\/]/).pop() ?? '').replace(/[\u0000-\u001f\u007f]/g, '').slice(-255);
