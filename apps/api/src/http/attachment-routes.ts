import multipart from '@fastify/multipart';
import { ATTACHMENT_BYTES_MAX, UuidInput } from '@verdict/contracts';
import {
  AppError,
  type AttachmentDownload,
  type Services,
  unexpectedFailure,
  withAuditContext,
} from '@verdict/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { requestAuditContext } from '../auth/audit-context.ts';
import { authenticate } from '../auth/authenticate.ts';
import { zodIssuesToDetails } from '../trpc/app-errors.ts';
import { sendAppError } from './envelope.ts';
import { noteRequestFailure } from './request-log.ts';
import { routeEndpoint } from './usage-counting.ts';

export const ATTACHMENT_UPLOAD_PATH = '/api/debates/:id/attachments';
export const ATTACHMENT_DOWNLOAD_PATH = '/api/debates/:id/attachments/:attachmentId/download';

const UploadParams = z.object({ id: UuidInput });
const DownloadParams = z.object({ id: UuidInput, attachmentId: UuidInput });

const badMultipart = (message: string) =>
  new AppError('VALIDATION_ERROR', `file: ${message}`, {
    details: [{ path: 'file', message, code: 'invalid_multipart' }],
  });

function parseParams<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new AppError('VALIDATION_ERROR', 'Request validation failed', {
    details: zodIssuesToDetails(result.error.issues),
  });
}

/**
 * RFC 6266 Content-Disposition: an ASCII fallback name (quotes and non-ASCII replaced) for old clients, and
 * the exact name as UTF-8 in filename*.
 */
export function contentDisposition(filename: string): string {
  const fallback = filename.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  const encoded = encodeURIComponent(filename).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

/**
 * The one file part named `file`, read whole: anything else (another field, a second part, a body over
 * 10 MB, not multipart at all) is 400 VALIDATION_ERROR, as the spec has it for bad multipart and size.
 */
async function readFilePart(request: FastifyRequest): Promise<{ filename: string; bytes: Uint8Array }> {
  if (!request.isMultipart()) throw badMultipart('the body must be multipart/form-data');
  let file: { filename: string; bytes: Uint8Array } | null = null;
  try {
    for await (const part of request.parts()) {
      if (part.type !== 'file' || part.fieldname !== 'file' || file !== null) {
        throw badMultipart('send exactly one part, a file named "file"');
      }
      const bytes = await part.toBuffer();
      file = { filename: part.filename, bytes };
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') {
      throw new AppError('VALIDATION_ERROR', `file: a file is at most ${ATTACHMENT_BYTES_MAX} bytes`, {
        details: [{ path: 'file', message: `at most ${ATTACHMENT_BYTES_MAX} bytes`, code: 'too_big' }],
      });
    }
    if (code === 'FST_PARTS_LIMIT' || code === 'FST_FILES_LIMIT' || code === 'FST_FIELDS_LIMIT') {
      throw badMultipart('send exactly one part, a file named "file"');
    }
    throw badMultipart('the multipart body could not be read');
  }
  if (!file) throw badMultipart('a file part named "file" is required');
  return file;
}

/**
 * Attachment upload and download, as plain routes: tRPC takes neither a multipart body nor answers raw
 * bytes. Same callers as the procedures (session cookie or API key), counted and rate limited the same way.
 * Upload checks the debate and the plan before reading the body, so a refused caller's 10 MB are not read.
 */
export async function registerAttachmentRoutes(app: FastifyInstance, core: Services) {
  await app.register(async (scope) => {
    await scope.register(multipart, {
      // One part; busboy stops at the byte cap and the part's toBuffer() throws FST_REQ_FILE_TOO_LARGE.
      limits: { parts: 1, files: 1, fields: 0, fileSize: ATTACHMENT_BYTES_MAX, headerPairs: 100 },
    });

    scope.post(ATTACHMENT_UPLOAD_PATH, (request, reply) =>
      answer(request, reply, async (headers) => {
        const caller = await authenticate(core, request, 'user', headers, {
          endpoint: routeEndpoint(request),
        });
        const { id } = parseParams(UploadParams, request.params);
        await core.attachments.assertCanAttach(caller.userId, id);
        const file = await readFilePart(request);
        const attachment = await withAuditContext(requestAuditContext(request, caller), () =>
          core.attachments.upload(caller.userId, id, file),
        );
        return reply.code(201).headers(headers).send(attachment);
      }),
    );

    scope.get(ATTACHMENT_DOWNLOAD_PATH, (request, reply) =>
      answer(request, reply, async (headers) => {
        const caller = await authenticate(core, request, 'user', headers, {
          endpoint: routeEndpoint(request),
        });
        const { id, attachmentId } = parseParams(DownloadParams, request.params);
        const download: AttachmentDownload = await core.attachments.download(caller.userId, id, attachmentId);
        reply.headers(headers).header('cache-control', 'private, no-store');
        if (download.kind === 'url') return reply.code(200).send({ url: download.url });
        return reply
          .code(200)
          .header('content-type', download.contentType)
          .header('content-disposition', contentDisposition(download.filename))
          .header('x-content-type-options', 'nosniff')
          .send(Buffer.from(download.bytes));
      }),
    );
  });
}

/** Runs a handler; its AppError (or an unexpected failure, as 500) is the envelope, with the rate headers. */
async function answer(
  request: FastifyRequest,
  reply: FastifyReply,
  handle: (headers: Record<string, string>) => Promise<FastifyReply>,
) {
  const headers: Record<string, string> = {};
  try {
    return await handle(headers);
  } catch (error) {
    const appError = error instanceof AppError ? error : unexpectedFailure(error);
    if (appError.code === 'INTERNAL_ERROR' || appError.code === 'SERVICE_UNAVAILABLE')
      noteRequestFailure(request, error);
    return sendAppError(reply.headers(headers), appError);
  }
}
