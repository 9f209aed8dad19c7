import { z } from 'zod';
import { UuidInput } from './ids.ts';

/** Attachments one debate may have (spec Limits), counted under a lock so parallel uploads cannot pass it. */
export const ATTACHMENTS_PER_DEBATE_MAX = 5;
/** Bytes of one uploaded file at most (spec Limits: 10 MB). */
export const ATTACHMENT_BYTES_MAX = 10 * 1024 * 1024;
/** Characters of extracted text kept per attachment (spec Limits: extracted context max 50,000). */
export const ATTACHMENT_TEXT_MAX = 50_000;
/** The file types accepted, by extension (spec: .pdf, .txt, .md, .docx). */
export const ATTACHMENT_EXTENSIONS = ['.pdf', '.txt', '.md', '.docx'] as const;

export const AttachmentKind = z.enum(['file', 'url']).meta({
  description: 'file: an uploaded file; url: a page fetched by POST /api/debates/fetch-url',
});
export type AttachmentKind = z.infer<typeof AttachmentKind>;

export const AttachmentStatus = z.enum(['pending', 'ready', 'failed']).meta({
  description: 'pending: text extraction has not run yet; ready: text extracted; failed: see failureReason',
});
export type AttachmentStatus = z.infer<typeof AttachmentStatus>;

export const Attachment = z
  .object({
    id: z.uuid(),
    debateId: z.uuid(),
    kind: AttachmentKind,
    filename: z.string().meta({ description: 'The uploaded file name (for URL attachments, the page host)' }),
    contentType: z
      .string()
      .meta({ description: 'Decided by the server from the extension, never the client' }),
    size: z.number().int().meta({ description: 'Stored bytes' }),
    status: AttachmentStatus,
    failureReason: z.string().nullable().meta({ description: 'Why extraction failed; null otherwise' }),
    url: z
      .string()
      .nullable()
      .meta({ description: 'The fetched address of a URL attachment; null for files' }),
    textLength: z.number().int().nullable().meta({ description: 'Characters of extracted text once ready' }),
    createdAt: z.iso.datetime(),
  })
  .meta({
    id: 'Attachment',
    description: 'A file or page attached to a debate; its text reaches the agents',
  });
export type Attachment = z.infer<typeof Attachment>;

export const AttachmentList = z.object({ attachments: z.array(Attachment) });
export type AttachmentList = z.infer<typeof AttachmentList>;

/** GET /api/debates/:id/attachments. */
export const ListAttachmentsInput = z.strictObject({ id: UuidInput });
export type ListAttachmentsInput = z.infer<typeof ListAttachmentsInput>;

/** DELETE /api/debates/:id/attachments/:attachmentId (and the download route's path). */
export const AttachmentPathInput = z.strictObject({ id: UuidInput, attachmentId: UuidInput });
export type AttachmentPathInput = z.infer<typeof AttachmentPathInput>;

/** POST /api/debates/fetch-url. */
export const FetchUrlInput = z.strictObject({
  debateId: UuidInput.meta({ description: 'The debate the page is attached to (the caller’s own)' }),
  url: z
    .url({ protocol: /^https?$/ })
    .max(2000)
    .meta({ description: 'http or https address of the page; every hop must reach a public address' }),
});
export type FetchUrlInput = z.infer<typeof FetchUrlInput>;
