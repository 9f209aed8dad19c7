import { ATTACHMENT_EXTENSIONS } from '@verdict/contracts';

export type AttachmentExtension = (typeof ATTACHMENT_EXTENSIONS)[number];

/** The content type stored (and answered on download) for each accepted extension. */
export const CONTENT_TYPES: Record<AttachmentExtension, string> = {
  '.pdf': 'application/pdf',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.docx': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
};

/** The accepted extension of `filename` (any letter case), or null. */
export function extensionOf(filename: string): AttachmentExtension | null {
  const dot = filename.lastIndexOf('.');
  if (dot < 0) return null;
  const extension = filename.slice(dot).toLowerCase();
  return (ATTACHMENT_EXTENSIONS as readonly string[]).includes(extension)
    ? (extension as AttachmentExtension)
    : null;
}

const startsWith = (bytes: Uint8Array, prefix: readonly number[]) =>
  bytes.length >= prefix.length && prefix.every((byte, i) => bytes[i] === byte);

/** "%PDF-": every PDF starts with its header. */
const PDF_MAGIC = [0x25, 0x50, 0x44, 0x46, 0x2d];
/** "PK\x03\x04": a .docx is a zip archive, whose first local file header starts so. */
const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];

/**
 * Why `bytes` are not what their extension says, or null when they are: the client's Content-Type is never
 * trusted, the bytes decide. A .pdf must start with the PDF header, a .docx with a zip header, and .txt and
 * .md must be valid UTF-8 text.
 */
export function contentMismatch(extension: AttachmentExtension, bytes: Uint8Array): string | null {
  switch (extension) {
    case '.pdf':
      return startsWith(bytes, PDF_MAGIC) ? null : 'the file is not a PDF document';
    case '.docx':
      return startsWith(bytes, ZIP_MAGIC) ? null : 'the file is not a Word (.docx) document';
    case '.txt':
    case '.md':
      try {
        new TextDecoder('utf-8', { fatal: true }).decode(bytes);
        return null;
      } catch {
        return 'the file is not UTF-8 text';
      }
  }
}
