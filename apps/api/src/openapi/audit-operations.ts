import { AuditExportQuery } from '@verdict/contracts';
import type { z } from 'zod';
import { createSchema } from 'zod-openapi';
import { headerRefs } from './components.ts';
import { errorResponses, SECURITY_BY_AUTH } from './responses.ts';
import { routeErrors } from './route-errors.ts';

const LIMIT_HEADERS = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'] as const;

/** The export's query parameters, from the schema the route parses them with: the two cannot differ. */
function exportParameters() {
  return Object.entries(AuditExportQuery.shape).map(([name, field]) => {
    const { schema } = createSchema(field as z.ZodType, { io: 'input' });
    const { description, ...rest } = schema as { description?: string };
    return {
      name,
      in: 'query',
      required: !(field as z.ZodType).safeParse(undefined).success,
      ...(description ? { description } : {}),
      schema: rest,
    };
  });
}

/** GET /api/audit/export: the trail as a file, streamed (a plain route, http/audit-export.ts). */
function exportOperation() {
  const errors = routeErrors(
    {
      auth: 'user',
      errors: {
        VALIDATION_ERROR: 'A filter out of its format, or a format other than ndjson or csv',
        BYOK_REQUIRED:
          "The audit log needs the Pro, BYOK Pro or Enterprise plan (the caller's, or the workspace owner's)",
        FORBIDDEN: 'workspaceId names a workspace the caller is not an admin or the owner of',
        NOT_FOUND: 'workspaceId names no workspace',
      },
    },
    { method: 'GET', takesInput: true },
  );
  return {
    operationId: 'audit-export',
    summary: 'Download an audit trail as NDJSON or CSV',
    description: [
      '**Extension**: not named by the interface specification.',
      "The caller's account's trail (or, with workspaceId, the workspace's, for its admins and owner), with",
      'the filters of GET /api/audit, oldest first, up to the last entry there when the export began. Streamed',
      'as it is read, with Content-Disposition attachment. ndjson: one AuditEntry per line. csv: a header row',
      'then one row per entry (RFC 4180 quoting; `changes` as its JSON text). Refusals come before any byte, in',
      'the error envelope.',
    ].join(' '),
    tags: ['audit'],
    security: SECURITY_BY_AUTH.user,
    'x-extension': true,
    parameters: exportParameters(),
    responses: {
      '200': {
        description: 'The file',
        headers: headerRefs(LIMIT_HEADERS),
        content: {
          'application/x-ndjson': {
            schema: { type: 'string', description: 'One AuditEntry (JSON) per line' },
          },
          'text/csv': {
            schema: {
              type: 'string',
              description:
                'Columns: chain, seq, at, actor_kind, actor_id, actor_key_id, action, target_type, target_id, ' +
                'ip, user_agent, request_id, changes, prev_hash, hash',
            },
          },
        },
      },
      ...errorResponses(errors, [...LIMIT_HEADERS]),
    },
  };
}

/** The audit routes served by plain handlers, for the document (plain-routes.ts). */
export const auditPaths = () => ({ '/api/audit/export': { get: exportOperation() } });
