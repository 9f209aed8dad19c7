import type { Attachment } from '@verdict/contracts';

/** The columns an Attachment answer is made of (never the text or the bytes). */
export const ATTACHMENT_COLUMNS = [
  'id',
  'debate_id',
  'owner_id',
  'kind',
  'filename',
  'content_type',
  'size',
  'status',
  'failure_reason',
  'url',
  'created_at',
] as const;

export type AttachmentRow = {
  id: string;
  debate_id: string;
  owner_id: string;
  kind: Attachment['kind'];
  filename: string;
  content_type: string;
  size: number;
  status: Attachment['status'];
  failure_reason: string | null;
  url: string | null;
  created_at: Date | string;
  text_length: number | null;
};

export const toAttachment = (row: AttachmentRow): Attachment => ({
  id: row.id,
  debateId: row.debate_id,
  kind: row.kind,
  filename: row.filename,
  contentType: row.content_type,
  size: row.size,
  status: row.status,
  failureReason: row.failure_reason,
  url: row.url,
  textLength: row.text_length === null ? null : Number(row.text_length),
  createdAt: new Date(row.created_at).toISOString(),
});
