import { Readable } from 'node:stream';
import { AuditExportQuery } from '@verdict/contracts';
import { AppError, type Services, unexpectedFailure } from '@verdict/core';
import type { FastifyInstance } from 'fastify';
import { authenticate } from '../auth/authenticate.ts';
import { zodIssuesToDetails } from '../trpc/app-errors.ts';
import { contentDisposition } from './attachment-routes.ts';
import { AUDIT_EXPORT_FORMATS, exportChunks } from './audit-export-formats.ts';
import { sendAppError } from './envelope.ts';
import { noteRequestFailure } from './request-log.ts';
import { routeEndpoint } from './usage-counting.ts';

export const AUDIT_EXPORT_PATH = '/api/audit/export';

function parseQuery(query: unknown): AuditExportQuery {
  const result = AuditExportQuery.safeParse(query ?? {});
  if (result.success) return result.data;
  throw new AppError('VALIDATION_ERROR', 'Request validation failed', {
    details: zodIssuesToDetails(result.error.issues),
  });
}

/**
 * GET /api/audit/export: a whole trail (or what the filters keep) as an NDJSON or CSV file, oldest first.
 * A plain route because tRPC answers one JSON value: this writes the entries as core reads them, a page
 * at a time, at the pace the client reads. Who may read and the plan are checked before the first byte, so
 * their refusals are envelopes like every route's; a failure after that can only cut the file short.
 */
export function registerAuditExport(app: FastifyInstance, core: Services) {
  app.get(AUDIT_EXPORT_PATH, async (request, reply) => {
    const headers: Record<string, string> = {};
    try {
      const caller = await authenticate(core, request, 'user', headers, { endpoint: routeEndpoint(request) });
      const { format, ...filters } = parseQuery(request.query);
      const entries = await core.audit.export(caller.userId, filters);
      const chain = filters.workspaceId ? `workspace-${filters.workspaceId}` : 'account';
      const { contentType, extension } = AUDIT_EXPORT_FORMATS[format];
      const body = Readable.from(exportChunks(format, entries), { objectMode: false });
      body.once('error', (error) => noteRequestFailure(request, error));
      return reply
        .code(200)
        .headers(headers)
        .header('content-type', contentType)
        .header('content-disposition', contentDisposition(`audit-${chain}.${extension}`))
        .header('cache-control', 'private, no-store')
        .header('x-content-type-options', 'nosniff')
        .send(body);
    } catch (error) {
      const appError = error instanceof AppError ? error : unexpectedFailure(error);
      if (appError.code === 'INTERNAL_ERROR' || appError.code === 'SERVICE_UNAVAILABLE')
        noteRequestFailure(request, error);
      return sendAppError(reply.headers(headers), appError);
    }
  });
}
