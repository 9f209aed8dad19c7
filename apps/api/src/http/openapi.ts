import { ErrorEnvelope } from '@verdict/contracts';
import { generateOpenApiDocument, type OpenAPIObject, type OpenApiRouter } from 'trpc-to-openapi';
import { createSchema } from 'zod-openapi';
import type { AuthKind, Meta } from '../trpc/init.ts';

type Operation = {
  security?: Record<string, string[]>[];
  responses: Record<string, { description: string; content?: unknown; headers?: Record<string, unknown> }>;
  deprecated?: boolean;
  operationId?: string;
};

const SECURITY_SCHEMES = {
  bearerAuth: { type: 'http', scheme: 'bearer', description: 'API key (vrd_…) as a bearer token' },
  apiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-Api-Key', description: 'API key (vrd_…)' },
  sessionCookie: { type: 'apiKey', in: 'cookie', name: 'verdict_session', description: 'Dashboard session' },
} as const;

const SECURITY_BY_AUTH: Record<AuthKind, Record<string, string[]>[]> = {
  none: [],
  key: [{ bearerAuth: [] }, { apiKeyHeader: [] }],
  user: [{ bearerAuth: [] }, { apiKeyHeader: [] }, { sessionCookie: [] }],
};

const intHeader = (description: string) => ({ description, schema: { type: 'integer' } });
const RATE_LIMIT_HEADERS = {
  'X-RateLimit-Limit': intHeader('Requests allowed per minute for this key'),
  'X-RateLimit-Remaining': intHeader('Requests left in the current window'),
  'X-RateLimit-Reset': intHeader('Unix time (seconds) when the window resets'),
};

const errorContent = { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } };

/** Procedure meta by "METHOD /path", read from the router so the document says what the code does. */
function metaByRoute(router: OpenApiRouter): Map<string, Meta> {
  const routes = new Map<string, Meta>();
  for (const procedure of Object.values(router._def.procedures) as { _def: { meta?: Meta } }[]) {
    const meta = procedure._def.meta;
    if (meta?.openapi) routes.set(`${meta.openapi.method.toLowerCase()} ${meta.openapi.path}`, meta);
  }
  return routes;
}

/**
 * OpenAPI 3.1 for every REST route, generated from the router, then completed with what the generator
 * cannot know: the error envelope, real success statuses, per-route security, rate-limit and deprecation
 * headers.
 */
export function buildOpenApiDocument(router: OpenApiRouter, baseUrl: string): OpenAPIObject {
  const doc = generateOpenApiDocument(router, {
    title: 'Verdict API',
    version: '1.0.0',
    description:
      'Multi-agent AI debates with structured verdicts. `/v1` is the public API (API key); `/api` serves ' +
      'the dashboard (session cookie or API key). Every error is `{"error":{"code","message","details"?}}`.',
    baseUrl,
    license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    securitySchemes: SECURITY_SCHEMES as never,
  });
  const routes = metaByRoute(router);
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const [method, operation] of Object.entries(item as Record<string, Operation>)) {
      const meta = routes.get(`${method} ${path}`);
      if (!meta) continue;
      completeOperation(operation, meta);
    }
  }
  // createSchema answers a $ref for a schema with an id; the definition itself is in its components.
  const { components: envelopeComponents } = createSchema(ErrorEnvelope);
  doc.components = {
    ...doc.components,
    schemas: { ...doc.components?.schemas, ...(envelopeComponents as Record<string, never>) },
  };
  doc.tags = [
    { name: 'auth', description: 'Dashboard accounts and sessions' },
    { name: 'keys', description: 'API key management' },
    { name: 'debates', description: 'Debates of the dashboard' },
    { name: 'v1', description: 'Public API' },
  ];
  return doc;
}

function completeOperation(operation: Operation, meta: Meta) {
  const auth = meta.auth ?? 'none';
  operation.security = SECURITY_BY_AUTH[auth];
  const responses = operation.responses;
  const success = responses['200'];
  delete responses['200'];
  const status = String(meta.successStatus ?? 200);
  if (success) {
    if (status === '204') delete success.content;
    responses[status] = success;
  }
  if (auth !== 'none') {
    responses['401'] ??= { description: 'Missing or invalid credentials' };
    if (success) success.headers = { ...success.headers, ...RATE_LIMIT_HEADERS };
    responses['429'] ??= { description: 'Rate limit exceeded' };
    responses['429'].headers = {
      ...RATE_LIMIT_HEADERS,
      'Retry-After': intHeader('Seconds to wait before retrying'),
    };
  }
  responses['500'] ??= { description: 'Unexpected failure; the message carries no internals' };
  for (const [code, response] of Object.entries(responses)) {
    if (Number(code) >= 400) {
      response.content = errorContent;
    }
  }
  if (meta.deprecation) {
    operation.deprecated = true;
    if (success) {
      success.headers = {
        ...success.headers,
        Deprecation: { description: 'Always "true" on a deprecated route', schema: { type: 'string' } },
        Sunset: { description: 'HTTP date after which the route may be removed', schema: { type: 'string' } },
        Link: { description: 'Migration guide, rel="deprecation"', schema: { type: 'string' } },
      };
    }
  }
}
