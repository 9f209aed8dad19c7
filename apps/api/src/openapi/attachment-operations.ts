import {
  ATTACHMENT_BYTES_MAX,
  ATTACHMENT_EXTENSIONS,
  ATTACHMENTS_PER_DEBATE_MAX,
  Attachment,
} from '@verdict/contracts';
import { ATTACHMENT_CONTENT_TYPES } from '@verdict/core';
import { createSchema } from 'zod-openapi';
import { headerRefs } from './components.ts';
import { errorResponses, SECURITY_BY_AUTH } from './responses.ts';
import { routeErrors } from './route-errors.ts';

const LIMIT_HEADERS = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'] as const;

const uuidParameter = (name: string) => ({
  name,
  in: 'path',
  required: true,
  schema: { type: 'string', format: 'uuid' },
});

/** POST /api/debates/{id}/attachments: the multipart upload (a plain route, attachment-routes.ts). */
function uploadOperation(attachment: Record<string, unknown>) {
  const errors = routeErrors(
    {
      auth: 'user',
      errors: {
        VALIDATION_ERROR:
          `Not multipart with exactly one part named file; an extension other than ${ATTACHMENT_EXTENSIONS.join(', ')}; ` +
          `over ${ATTACHMENT_BYTES_MAX} bytes; bytes that are not what the extension says; or the debate has ` +
          `${ATTACHMENTS_PER_DEBATE_MAX} attachments already`,
        BYOK_REQUIRED: 'Attachments need the BYOK Pro plan (or Enterprise); requiredPlan names it',
        NOT_FOUND: 'No such debate, or it belongs to another user',
        // The server's body parsers refuse a content type none of them reads before the route runs.
        UNSUPPORTED_MEDIA_TYPE:
          'A Content-Type the server reads no body of (neither multipart nor JSON nor text)',
      },
    },
    { method: 'POST', takesInput: true },
  );
  return {
    operationId: 'attachments-upload',
    summary: 'Attach a file to a debate',
    description: [
      'multipart/form-data with one file part named `file` (.pdf, .txt, .md, .docx; at most 10 MB; at most',
      '5 per debate). The debate owner only, on BYOK Pro. Answers 201 as soon as the file is stored, with',
      'status pending; an engine node extracts its text shortly after (status ready, or failed with the',
      'reason). The content type is decided by the extension and checked against the bytes; the part’s own',
      'Content-Type is ignored.',
    ].join(' '),
    tags: ['debates'],
    security: SECURITY_BY_AUTH.user,
    parameters: [uuidParameter('id')],
    requestBody: {
      required: true,
      content: {
        'multipart/form-data': {
          schema: {
            type: 'object',
            properties: { file: { type: 'string', format: 'binary', description: 'The file' } },
            required: ['file'],
          },
        },
      },
    },
    responses: {
      '201': {
        description: 'Stored; text extraction follows',
        headers: headerRefs(LIMIT_HEADERS),
        content: { 'application/json': { schema: attachment } },
      },
      ...errorResponses(errors, [...LIMIT_HEADERS]),
    },
  };
}

/** GET /api/debates/{id}/attachments/{attachmentId}/download: the stored bytes, or a URL attachment's url. */
function downloadOperation() {
  const errors = routeErrors(
    {
      auth: 'user',
      errors: { NOT_FOUND: 'No such debate or attachment, or the debate belongs to another user' },
    },
    { method: 'GET', takesInput: true },
  );
  return {
    operationId: 'attachments-download',
    summary: 'Download an attachment',
    description: [
      'A file attachment answers its stored bytes exactly, with Content-Disposition attachment (the',
      'uploaded name, RFC 6266), its stored Content-Type and X-Content-Type-Options nosniff. A URL attachment',
      'answers JSON {url}.',
    ].join(' '),
    tags: ['debates'],
    security: SECURITY_BY_AUTH.user,
    parameters: [uuidParameter('id'), uuidParameter('attachmentId')],
    responses: {
      '200': {
        description: 'The file, or the address of a fetched page',
        headers: headerRefs(LIMIT_HEADERS),
        content: {
          // The stored type of the file (decided by its extension at upload), or JSON for a URL attachment.
          ...Object.fromEntries(
            Object.values(ATTACHMENT_CONTENT_TYPES).map((type) => [
              type.split(';')[0],
              { schema: { type: 'string', format: 'binary' } },
            ]),
          ),
          'application/json': {
            schema: {
              type: 'object',
              properties: { url: { type: 'string', format: 'uri' } },
              required: ['url'],
              additionalProperties: false,
            },
          },
        },
      },
      ...errorResponses(errors, [...LIMIT_HEADERS]),
    },
  };
}

/** The attachment routes served by plain handlers, for the document (plain-routes.ts). */
export function attachmentPaths() {
  const attachment = createSchema(Attachment, { io: 'output' });
  return {
    schemas: attachment.components ?? {},
    paths: {
      '/api/debates/{id}/attachments': {
        post: uploadOperation(attachment.schema as Record<string, unknown>),
      },
      '/api/debates/{id}/attachments/{attachmentId}/download': { get: downloadOperation() },
    },
  };
}
