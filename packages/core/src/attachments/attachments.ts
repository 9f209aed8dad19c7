import { assertCanAttach } from './assert-can-attach.ts';
import type { AttachmentResources } from './attachment-resources.ts';
import { downloadAttachment } from './download-attachment.ts';
import { fetchUrl } from './fetch-url.ts';
import { listAttachments } from './list-attachments.ts';
import { removeAttachment } from './remove-attachment.ts';
import { uploadAttachment } from './upload-attachment.ts';

export type { AttachmentDownload } from './download-attachment.ts';
export type { UploadedFile } from './upload-attachment.ts';

/**
 * Attachments of debates, for their owners only: upload (stored at once, text extracted later by the engine
 * nodes), list, download, delete. Someone else's debate is NOT_FOUND, as if it did not exist, except that
 * DELETE on a debate the caller may read but does not own (a workspace's, a public one) is FORBIDDEN, as
 * the spec has it. Adding attachments needs BYOK Pro; reading and deleting the ones there do not. A create's
 * attachmentIds reach its debate through creation (debate-attachments.ts). One operation a file, over the
 * resources given here.
 */
export function createAttachments(resources: AttachmentResources) {
  return {
    assertCanAttach: assertCanAttach(resources),
    upload: uploadAttachment(resources),
    fetchUrl: fetchUrl(resources),
    list: listAttachments(resources),
    download: downloadAttachment(resources),
    remove: removeAttachment(resources),
  };
}

export type Attachments = ReturnType<typeof createAttachments>;
