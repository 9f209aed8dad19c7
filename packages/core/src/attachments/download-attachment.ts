import { notFound } from '../shared/app-error.ts';
import { type AttachmentResources, attachmentQuery, ownDebate } from './attachment-resources.ts';

/** A stored attachment's bytes for download, or the address of a URL attachment. */
export type AttachmentDownload =
  | { kind: 'file'; filename: string; contentType: string; bytes: Uint8Array }
  | { kind: 'url'; url: string };

/** An attachment of the caller's own debate: a file's bytes, or a URL attachment's address. */
export const downloadAttachment =
  ({ db, blobs }: AttachmentResources) =>
  async (userId: string, debateId: string, attachmentId: string): Promise<AttachmentDownload> => {
    const em = db.em();
    await ownDebate(em, userId, debateId, false);
    const row = await attachmentQuery(em)
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
  };
