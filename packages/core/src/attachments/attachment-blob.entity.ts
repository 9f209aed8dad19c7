import { defineEntity, p } from '@mikro-orm/core';
import { Attachment } from './attachment.entity.ts';

/**
 * The stored bytes of an attachment (the PostgreSQL blob store): one row per attachment, apart from the
 * record so lists never read them. In the database, so every API process and engine node sees the same bytes.
 */
export const AttachmentBlobSchema = defineEntity({
  name: 'AttachmentBlob',
  tableName: 'attachment_blobs',
  properties: {
    attachment: () => p.manyToOne(Attachment).primary().deleteRule('cascade').updateRule('no action'),
    bytes: p.blob(),
  },
});

export class AttachmentBlob extends AttachmentBlobSchema.class {}
AttachmentBlobSchema.setClass(AttachmentBlob);
