import { generateOpenApiDocument, type OpenAPIObject, type OpenApiRouter } from 'trpc-to-openapi';
import type { Meta } from '../trpc/meta.ts';
import { errorComponents, HEADERS, type HeaderName, headerRefs } from './components.ts';
import { plainRoutePaths } from './plain-routes.ts';
import { errorResponses, type Response, SECURITY_BY_AUTH, SECURITY_SCHEMES } from './responses.ts';
import { routeErrors } from './route-errors.ts';

type Operation = {
  security?: Record<string, string[]>[];
  responses: Record<string, Response>;
  parameters?: unknown[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: { required?: string[] } }> };
  deprecated?: boolean;
  operationId?: string;
  tags?: string[];
  description?: string;
  'x-extension'?: boolean;
};

const TAG_DESCRIPTIONS: Record<string, string> = {
  auth: 'Dashboard accounts and sessions (an extension: the specification leaves sign-in open)',
  keys: 'API key management',
  debates: 'Debates of the dashboard',
  v1: 'The public API',
  health: 'Liveness and readiness',
  outcomes: 'What became of decisions: pending and resolved outcomes',
  scores: 'Decision scores: how well calibrated the verdicts were for the caller',
  streaks: 'Daily-use streaks and milestones',
  collections: 'Named lists of debates, private or public',
  chains: 'Decision chains: trees of related debates, and their summary as context for the next',
  share: 'Share links of debates (owner only)',
  public: 'Shared debates read by link, without credentials',
  notifications: 'Notifications of comments on and forks of your debates: inbox, live stream, unsubscribe',
  'notification-preferences': 'Which notifications are also emailed',
  recommendations: "Other users' public debates suggested to you",
  similar: 'Your own debates closest in meaning to a text (embeddings)',
  search: 'Search of your own debates (keyword, full text), suggestions and search history',
  workspaces: 'Team workspaces: members and roles, settings, and the debates they share',
  'scheduled-debates': 'Debates asked again daily, weekly or monthly, each run billed like a manual debate',
  billing:
    'Plans and credit packs through Stripe checkout, the customer portal, the balance, and the Stripe webhook',
  invoices: 'What you paid: subscription invoices and credit-pack purchases',
  webhooks: 'User webhooks: signed POSTs of debate, outcome and chain events, with the delivery history',
  audit: 'Audit trails of accounts and workspaces: who changed what, from where, chained by hash',
  sso: "Single sign-on for Enterprise workspaces: the workspace's OIDC or SAML provider, sign-in through it, deprovisioning",
};

/** A route family's tag, from its path: /api/debates/… → debates, /v1/… → v1. */
export const tagOf = (path: string) =>
  path.startsWith('/v1/')
    ? 'v1'
    : path === '/health' || path === '/ready'
      ? 'health'
      : (path.split('/')[2] ?? 'api');

const EXTENSION_NOTE = '**Extension**: not named by the interface specification.';

const DESCRIPTION = [
  'Multi-agent AI debates with structured verdicts. `/v1` is the public API (API key); `/api` serves the',
  'dashboard (session cookie or API key). Every error is `{"error":{"code","message",…}}`; each response',
  "below lists the codes it can carry and each code's extra fields. Any request may also be answered 405",
  'METHOD_NOT_ALLOWED (with Allow) on a known path, 408 REQUEST_TIMEOUT when it does not arrive within the',
  "server's request timeout, 431 when its headers are too large, or 503 SERVICE_UNAVAILABLE (with",
  'Retry-After) while the database cannot be reached. Operations marked `x-extension` are',
  'not named by the interface specification. Official clients (README, "Clients"): the TypeScript SDK',
  '`@verdict/sdk` (typed REST from this document, the tRPC router type, streams as async iterators), and the',
  '`verdict` command-line tool with its MCP server (`verdict mcp`); SDK 1.x and CLI 1.x pair with `/v1`.',
].join(' ');

/** Procedure meta by "method /path", read from the router so the document says what the code does. */
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
 * cannot know: each route's own errors with the envelope of each code, real success statuses, security
 * alternatives, rate-limit, request-id and deprecation headers, tags, extensions, and the plain routes
 * (health, the debate streams).
 */
export function buildOpenApiDocument(router: OpenApiRouter, baseUrl: string): OpenAPIObject {
  const doc = generateOpenApiDocument(router, {
    title: 'Verdict API',
    version: '1.0.0',
    description: DESCRIPTION,
    baseUrl,
    license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    contact: { name: 'Verdict API', url: `${baseUrl}/docs` },
    securitySchemes: SECURITY_SCHEMES as never,
  });
  const routes = metaByRoute(router);
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const [method, operation] of Object.entries(item as Record<string, Operation>)) {
      const meta = routes.get(`${method} ${path}`);
      if (meta) completeOperation(operation, meta, method, path);
    }
  }
  const plain = plainRoutePaths();
  // Merged per path: a plain route may add a method (OPTIONS) to a path a procedure serves.
  const paths = { ...doc.paths } as Record<string, Record<string, unknown>>;
  for (const [path, item] of Object.entries(plain.paths)) paths[path] = { ...(paths[path] ?? {}), ...item };
  doc.paths = paths as unknown as typeof doc.paths;
  // The generator's own error schemas (error.BAD_REQUEST …) describe trpc-to-openapi's body, not ours.
  const generated = Object.fromEntries(
    Object.entries(doc.components?.schemas ?? {}).filter(([name]) => !name.startsWith('error.')),
  );
  doc.components = {
    ...doc.components,
    schemas: {
      ...generated,
      ...plain.schemas,
      ...referenced('schemas', errorComponents(), doc.paths),
    } as never,
    headers: referenced('headers', HEADERS, doc.paths) as never,
  };
  // The servers are this API's own public address: reachable from outside, not an internal one.
  doc.servers = doc.servers?.map((server) => ({ ...server, 'x-internal': false }));
  addIntegerFormats(doc);
  const tags = new Set(
    Object.values(doc.paths ?? {}).flatMap((item) =>
      Object.values(item as Record<string, Operation>).flatMap((operation) => operation.tags ?? []),
    ),
  );
  doc.tags = [...tags].sort().map((name) => ({ name, description: TAG_DESCRIPTIONS[name] ?? name }));
  return doc;
}

/**
 * The document as served to a request that came to `baseUrl` (request-links.ts): its server and its contact
 * link there; everything else is the same document, not a copy.
 */
export function documentOn(doc: OpenAPIObject, baseUrl: string): OpenAPIObject {
  return {
    ...doc,
    info: { ...doc.info, contact: { ...doc.info.contact, url: `${baseUrl}/docs` } },
    servers: [{ url: baseUrl, 'x-internal': false }],
  };
}

/** Only the components the paths refer to: a code no route answers with is not part of this API. */
function referenced(kind: 'schemas' | 'headers', components: Record<string, unknown>, paths: unknown) {
  const pattern = new RegExp(`#/components/${kind}/([\\w.-]+)`, 'g');
  const refs = new Set([...JSON.stringify(paths).matchAll(pattern)].map((match) => match[1]));
  return Object.fromEntries(Object.entries(components).filter(([name]) => refs.has(name)));
}

/** int32 or int64 on every integer schema, by its bounds: what a client may store the value in. */
function addIntegerFormats(node: unknown) {
  if (Array.isArray(node)) {
    for (const item of node) addIntegerFormats(item);
    return;
  }
  if (typeof node !== 'object' || node === null) return;
  const schema = node as { type?: unknown; format?: string; minimum?: number; maximum?: number };
  if (schema.type === 'integer' && schema.format === undefined) {
    const fits = (value: number | undefined) => value !== undefined && Math.abs(value) <= 2 ** 31 - 1;
    schema.format = fits(schema.minimum) && fits(schema.maximum) ? 'int32' : 'int64';
  }
  for (const child of Object.values(node)) addIntegerFormats(child);
}

function completeOperation(operation: Operation, meta: Meta, method: string, path: string) {
  const auth = meta.auth ?? 'none';
  operation.security = SECURITY_BY_AUTH[auth];
  operation.tags = [tagOf(path)];
  if (meta.extension) {
    operation['x-extension'] = true;
    operation.description = [EXTENSION_NOTE, operation.description].filter(Boolean).join('\n\n');
  }
  const limited = auth !== 'none' || meta.rateLimitHeaders === true;
  const limitHeaders: HeaderName[] = limited
    ? ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']
    : [];

  const { responses } = operation;
  const success = responses['200'];
  for (const status of Object.keys(responses)) delete responses[status];
  if (success) {
    const status = String(meta.successStatus ?? 200);
    if (status === '204') delete success.content;
    const deprecation: HeaderName[] = meta.deprecation ? ['Deprecation', 'Sunset', 'Link'] : [];
    const cookie: HeaderName[] = meta.setsSessionCookie ? ['Set-Cookie'] : [];
    success.headers = headerRefs([...limitHeaders, ...deprecation, ...cookie]);
    responses[status] = success;
  }
  if (meta.deprecation) operation.deprecated = true;

  // The generator marks every body required; one that requires no field may be left out (read as `{}`).
  const body = operation.requestBody;
  if (body && (body.content?.['application/json']?.schema?.required ?? []).length === 0)
    body.required = false;

  const takesInput = (operation.parameters?.length ?? 0) > 0 || operation.requestBody !== undefined;
  Object.assign(responses, errorResponses(routeErrors(meta, { method, takesInput }), limitHeaders));
}
