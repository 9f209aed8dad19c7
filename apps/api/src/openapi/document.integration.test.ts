import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { DebateEventData, type ErrorCode, errorStatus } from '@verdict/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appRouter } from '../router.ts';
import { type Harness, startServer } from '../testing/http-harness.ts';
import type { Meta } from '../trpc/meta.ts';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');
const BIN = join(REPO_ROOT, 'node_modules/.bin');

type Operation = {
  operationId?: string;
  security?: Record<string, string[]>[];
  deprecated?: boolean;
  tags?: string[];
  responses: Record<
    string,
    { description?: string; content?: Record<string, { schema?: { $ref?: string } }>; headers?: object }
  >;
};
type Document = {
  openapi: string;
  info: { title: string; version: string };
  servers?: { url: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown>; securitySchemes: Record<string, { type: string }> };
};

/** "METHOD /path" of every REST procedure, read from the router's own meta. */
function routerRoutes(): string[] {
  return (Object.values(appRouter._def.procedures) as unknown as { _def: { meta?: Meta } }[])
    .map((p) => p._def.meta?.openapi)
    .filter((o) => o !== undefined)
    .map((o) => `${o.method.toUpperCase()} ${o.path}`)
    .sort();
}

function documentRoutes(doc: Document): string[] {
  return Object.entries(doc.paths)
    .flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`))
    .sort();
}

/** Runs `npm run lint:api`'s linters (Redocly recommended, Spectral OpenAPI + OWASP) on a document. */
async function lintDocument(document: object): Promise<{ code: number; output: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'verdict-openapi-'));
  try {
    const file = join(dir, 'openapi.json');
    await writeFile(file, JSON.stringify(document, null, 2));
    return await promisify(execFile)('bash', [join(REPO_ROOT, 'infra/lint-api.sh'), file], {
      cwd: REPO_ROOT,
      env: { ...process.env, PATH: `${BIN}:${process.env.PATH ?? ''}` },
      timeout: 60_000,
    }).then(
      ({ stdout, stderr }) => ({ code: 0, output: stdout + stderr }),
      (err: { code?: number; stdout?: string; stderr?: string }) => ({
        code: typeof err.code === 'number' ? err.code : -1,
        output: `${err.stdout ?? ''}${err.stderr ?? ''}`,
      }),
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Stylish-format lines reporting an error-level problem, e.g. "  12:4  error  struct  ...". */
const LINT_ERROR_LINE = /^\s*\d+:\d+\s+error\s/m;

/** Routes served by plain handlers and described by hand. */
const PLAIN_ROUTES = [
  'POST /api/billing/webhook',
  'GET /api/debates/{id}/stream',
  'GET /api/notifications/stream',
  'GET /api/unsubscribe',
  'GET /health',
  'GET /ready',
  'GET /v1/verdicts/{id}/stream',
  'OPTIONS /api/public/debates/{token}',
  'POST /api/debates/{id}/attachments',
  'GET /api/debates/{id}/attachments/{attachmentId}/download',
  'GET /api/audit/export',
  'GET /api/auth/sso/{slug}',
  'GET /api/auth/sso/{slug}/oidc/callback',
  'POST /api/auth/sso/{slug}/saml/acs',
  'GET /api/auth/sso/{slug}/saml/metadata',
];

type Schema = {
  $ref?: string;
  anyOf?: Schema[];
  properties?: Record<string, Schema>;
  required?: string[];
  const?: string;
  type?: string;
};

describe('GET /openapi.json', () => {
  let h: Harness;
  let doc: Document;
  const op = (method: string, path: string) => {
    const operation = doc.paths[path]?.[method];
    if (!operation) throw new Error(`no ${method} ${path} in the document`);
    return operation;
  };
  const schemaOf = (name: string) => doc.components.schemas[name] as Schema;
  /** The codes an error response can carry, read from the envelope components it refers to. */
  const codesOf = (method: string, path: string, status: string) => {
    const schema = op(method, path).responses[status]?.content?.['application/json']?.schema as Schema;
    const refs = schema?.anyOf ?? [schema];
    return refs.map((ref) => {
      const name = ref?.$ref?.replace('#/components/schemas/', '') ?? '';
      return schemaOf(name)?.properties?.error?.properties?.code?.const;
    });
  };

  beforeAll(async () => {
    h = await startServer({ env: { PUBLIC_BASE_URL: 'https://api.example.test' } });
    const res = await h.request<Document>('GET', '/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    doc = res.json;
  });
  afterAll(async () => {
    await h.close();
  });

  it('is OpenAPI 3.1 with the public base URL as its (public) server', () => {
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    expect(doc.info.title.length).toBeGreaterThan(0);
    expect(doc.servers).toEqual([{ url: 'https://api.example.test', 'x-internal': false }]);
  });

  it('documents every REST route of the router and the plain routes, and nothing else', () => {
    const expected = routerRoutes();
    expect(expected.length).toBeGreaterThanOrEqual(9);
    expect(expected).toEqual(
      expect.arrayContaining(['GET /v1/me', 'POST /api/keys', 'DELETE /api/keys/{id}']),
    );
    expect(documentRoutes(doc)).toEqual([...expected, ...PLAIN_ROUTES].sort());
  });

  it('gives every operation a unique operationId and a tag of its route family', () => {
    const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.values(item).map((o) => ({ path, ...o })),
    );
    const ids = operations.map((o) => o.operationId);
    expect(ids.every((id) => typeof id === 'string' && id.length > 0)).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    for (const o of operations) expect(o.tags, o.path).toHaveLength(1);
    expect(op('post', '/api/debates/{id}/fork').tags).toEqual(['debates']);
    expect(op('get', '/v1/verdicts/{id}/stream').tags).toEqual(['v1']);
    // Every tag is described: a family added without a description would show its bare name.
    for (const tag of (doc as unknown as { tags: { name: string; description: string }[] }).tags) {
      expect(tag.description, tag.name).not.toBe(tag.name);
    }
    expect((doc as unknown as { tags: { name: string }[] }).tags.map((t) => t.name)).toEqual([
      'audit',
      'auth',
      'billing',
      'chains',
      'collections',
      'debates',
      'health',
      'invoices',
      'keys',
      'notification-preferences',
      'notifications',
      'outcomes',
      'public',
      'recommendations',
      'scheduled-debates',
      'scores',
      'search',
      'share',
      'similar',
      'sso',
      'streaks',
      'v1',
      'webhooks',
      'workspaces',
    ]);
    expect(op('post', '/api/debates/{id}/outcome').tags).toEqual(['debates']);
  });

  it("describes each error by that route's own meaning, never another route's", () => {
    const description = (method: string, path: string, status: string) =>
      op(method, path).responses[status]?.description ?? '';
    expect(description('post', '/api/auth/login', '401')).toContain('Wrong email or password');
    expect(description('get', '/v1/me', '401')).toBe('UNAUTHORIZED: No valid API key');
    expect(description('get', '/api/keys', '401')).toBe('UNAUTHORIZED: No valid API key or session cookie');
    expect(description('post', '/api/debates', '409')).toContain('Idempotency-Key');
    expect(description('post', '/api/auth/register', '409')).toContain('email');
    expect(description('post', '/api/debates/{id}/commands', '409')).toContain('DEBATE_NOT_RUNNING');
    expect(description('patch', '/api/keys/{id}', '404')).toContain('key');
    expect(description('get', '/api/debates/{id}', '404')).toContain('debate');
  });

  it('lists no error a route cannot return', () => {
    const statuses = (method: string, path: string) => Object.keys(op(method, path).responses);
    expect(statuses('get', '/v1/health')).toEqual(['200', '500']);
    expect(statuses('get', '/api/keys')).toEqual(['200', '401', '429', '500']);
    expect(statuses('get', '/api/auth/session')).toEqual(['200', '401', '500']);
    // Signed out is an answer there, not an error: nothing but a failure of the server refuses it.
    expect(statuses('get', '/api/auth/state')).toEqual(['200', '500']);
    expect(statuses('post', '/api/auth/logout')).not.toContain('401');
    expect(statuses('post', '/api/auth/logout')).not.toContain('429');
    expect(statuses('get', '/v1/me')).toEqual(['200', '401', '429', '500']);
    expect(codesOf('post', '/api/debates', '429').sort()).toEqual([
      'CONCURRENT_LIMIT',
      'MONTHLY_LIMIT_REACHED',
      'QUOTA_EXCEEDED',
      'RATE_LIMITED',
    ]);
    expect(codesOf('post', '/v1/verdicts', '402').sort()).toEqual(['BYOK_REQUIRED', 'INSUFFICIENT_CREDITS']);
  });

  it('documents 413 and 415 on the routes that take a body, and not on the others', () => {
    for (const [method, path] of [
      ['post', '/api/keys'],
      ['patch', '/api/keys/{id}'],
      ['post', '/v1/verdicts'],
    ] as const) {
      expect(codesOf(method, path, '413'), path).toEqual(['PAYLOAD_TOO_LARGE']);
      expect(codesOf(method, path, '415'), path).toEqual(['UNSUPPORTED_MEDIA_TYPE']);
    }
    expect(op('get', '/api/debates').responses['413']).toBeUndefined();
  });

  it('refers every error response to the envelope of its codes, each with its status and its own fields', () => {
    let errorResponses = 0;
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        expect(operation.responses['500'], `${method} ${path} documents 500`).toBeDefined();
        // The unsubscribe link answers a person, errors included, as HTML (spec): no envelope to refer to.
        if (path === '/api/unsubscribe') {
          expect(Object.keys(operation.responses['400']?.content ?? {})).toEqual(['text/html']);
          continue;
        }
        for (const status of Object.keys(operation.responses)) {
          if (Number(status) < 400) continue;
          errorResponses++;
          for (const code of codesOf(method, path, status)) {
            expect(code, `${method} ${path} ${status}`).toBeDefined();
            expect(errorStatus(code as ErrorCode), `${method} ${path} ${code}`).toBe(Number(status));
          }
        }
      }
    }
    expect(errorResponses).toBeGreaterThan(100);
    const fields = (name: string) => schemaOf(name).properties?.error?.properties ?? {};
    expect(fields('MonthlyLimitReachedError')).toMatchObject({
      limit: { type: 'integer' },
      upgradeUrl: { type: 'string' },
    });
    expect(fields('ConcurrentLimitError')).toMatchObject({
      activeCount: { type: 'integer' },
      limit: { type: 'integer' },
    });
    expect(fields('RateLimitedError')).toMatchObject({ retryAfter: { type: 'integer' } });
    expect(schemaOf('MonthlyLimitReachedError').properties?.error?.required).toEqual(
      expect.arrayContaining(['code', 'message', 'limit', 'upgradeUrl']),
    );
    expect(Object.keys(fields('NotFoundError')).sort()).toEqual(['code', 'message']);
  });

  it('declares the bearerAuth, apiKeyHeader and sessionCookie security schemes', () => {
    const schemes = doc.components.securitySchemes;
    expect(Object.keys(schemes).sort()).toEqual(['apiKeyHeader', 'bearerAuth', 'sessionCookie']);
    expect(schemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(schemes.apiKeyHeader).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-Api-Key' });
    expect(schemes.sessionCookie).toMatchObject({ type: 'apiKey', in: 'cookie', name: 'verdict_session' });
  });

  it('states per-route security as alternatives, one scheme each: none for health and auth, key for /v1', () => {
    expect(op('get', '/v1/health').security).toEqual([]);
    expect(op('get', '/health').security).toEqual([]);
    expect(op('post', '/api/auth/login').security).toEqual([]);
    expect(op('get', '/v1/me').security).toEqual([{ bearerAuth: [] }, { apiKeyHeader: [] }]);
    expect(op('get', '/v1/verdicts/{id}/stream').security).toEqual([
      { bearerAuth: [] },
      { apiKeyHeader: [] },
    ]);
    for (const [method, path] of [
      ['get', '/api/keys'],
      ['post', '/api/keys'],
      ['patch', '/api/keys/{id}'],
      ['delete', '/api/keys/{id}'],
      ['get', '/api/debates/{id}/stream'],
    ] as const) {
      expect(op(method, path).security).toEqual([
        { bearerAuth: [] },
        { apiKeyHeader: [] },
        { sessionCookie: [] },
      ]);
    }
  });

  it('documents the real success statuses: 201 for POST /api/keys and register, 204 for DELETE /api/keys/{id} and logout', () => {
    expect(Object.keys(op('post', '/api/keys').responses)).toContain('201');
    expect(Object.keys(op('post', '/api/keys').responses)).not.toContain('200');
    expect(Object.keys(op('post', '/api/auth/register').responses)).toContain('201');
    const revoke = op('delete', '/api/keys/{id}').responses;
    expect(Object.keys(revoke)).toContain('204');
    expect(Object.keys(revoke)).not.toContain('200');
    expect(revoke['204']?.content).toBeUndefined();
    expect(op('post', '/api/auth/logout').responses['204']).toBeDefined();
    expect(op('get', '/v1/me').responses['200']).toBeDefined();
  });

  it('documents rate-limit headers on limited routes, Retry-After on 429, and X-Request-Id everywhere', () => {
    const me = op('get', '/v1/me').responses;
    expect(Object.keys(me['200']?.headers ?? {})).toEqual(
      expect.arrayContaining([
        'X-Request-Id',
        'X-RateLimit-Limit',
        'X-RateLimit-Remaining',
        'X-RateLimit-Reset',
      ]),
    );
    expect(Object.keys(me['429']?.headers ?? {})).toContain('Retry-After');
    expect(Object.keys(op('post', '/api/auth/register').responses['201']?.headers ?? {})).toContain(
      'X-RateLimit-Remaining',
    );
    expect(Object.keys(op('get', '/v1/health').responses['200']?.headers ?? {})).toEqual([
      'X-Request-Id',
      'Access-Control-Allow-Origin',
    ]);
    expect(op('get', '/v1/health').responses['429']).toBeUndefined();
  });

  it('marks a request body optional exactly where it requires no field (the server then reads it as {})', () => {
    const required = (method: string, path: string) =>
      (op(method, path) as { requestBody?: { required?: boolean } }).requestBody?.required;
    expect(required('patch', '/api/keys/{id}')).toBe(false);
    expect(required('post', '/api/debates/{id}/fork')).toBe(false);
    expect(required('post', '/api/keys')).toBe(true);
    expect(required('post', '/api/debates')).toBe(true);
    expect(required('post', '/api/debates/{id}/commands')).toBe(true);
  });

  it('documents Set-Cookie on the successes of sign-up, sign-in and sign-out, and on no other response', () => {
    const withCookie = Object.entries(doc.paths)
      .flatMap(([path, item]) =>
        Object.entries(item).flatMap(([method, o]) =>
          Object.entries(o.responses)
            .filter(([, response]) => Object.keys(response.headers ?? {}).includes('Set-Cookie'))
            .map(([status]) => `${method.toUpperCase()} ${path} ${status}`),
        ),
      )
      .sort();
    expect(withCookie).toEqual([
      'POST /api/auth/login 200',
      'POST /api/auth/logout 204',
      'POST /api/auth/register 201',
    ]);
  });

  it('documents the Idempotency-Key and X-Provider-Keys request headers where the routes read them', () => {
    const headers = (method: string, path: string) =>
      ((op(method, path) as { parameters?: { in: string; name: string }[] }).parameters ?? [])
        .filter((p) => p.in === 'header')
        .map((p) => p.name)
        .sort();
    expect(headers('post', '/api/debates')).toEqual(['Idempotency-Key', 'X-Provider-Keys']);
    expect(headers('post', '/v1/verdicts')).toEqual(['Idempotency-Key', 'X-Provider-Keys']);
    expect(headers('post', '/api/debates/{id}/retry')).toEqual(['X-Provider-Keys']);
  });

  it('documents both debate streams as text/event-stream with a schema per event, and their 204', () => {
    for (const path of ['/v1/verdicts/{id}/stream', '/api/debates/{id}/stream']) {
      const responses = op('get', path).responses;
      expect(responses['200']?.content?.['text/event-stream']?.schema?.$ref).toBe(
        '#/components/schemas/DebateStreamMessage',
      );
      expect(responses['204']).toBeDefined();
      expect(codesOf('get', path, '429')).toEqual(['RATE_LIMITED']);
    }
    const messages = (schemaOf('DebateStreamMessage').anyOf ??
      (schemaOf('DebateStreamMessage') as { oneOf?: Schema[] }).oneOf ??
      []) as Schema[];
    const events = messages.map((ref) => {
      const name = ref.$ref?.replace('#/components/schemas/', '') ?? '';
      return schemaOf(name).properties?.event?.const;
    });
    expect(events).toEqual(expect.arrayContaining(Object.keys(DebateEventData)));
    expect(events).toHaveLength(Object.keys(DebateEventData).length);
    expect(schemaOf('VerdictEvent').properties?.data?.properties?.confidence).toMatchObject({
      type: 'integer',
      maximum: 100,
    });
    // The calibrated confidence beside it, in the same unit, and optional (absent under the minimum).
    const verdictData = schemaOf('VerdictEvent').properties?.data;
    expect(verdictData?.properties?.calibratedConfidence).toMatchObject({ type: 'integer', maximum: 100 });
    expect(verdictData?.required).not.toContain('calibratedConfidence');
  });

  it('marks the routes the specification does not name as extensions, and only those', () => {
    const extensions = Object.entries(doc.paths)
      .flatMap(([path, item]) =>
        Object.entries(item)
          .filter(([, o]) => (o as { 'x-extension'?: boolean })['x-extension'] === true)
          .map(([method]) => `${method.toUpperCase()} ${path}`),
      )
      .sort();
    expect(extensions).toEqual(
      [
        'DELETE /api/debates/{id}/comments/{commentId}',
        'GET /api/audit',
        'GET /api/audit/export',
        'GET /api/audit/verify',
        'GET /api/auth/session',
        'GET /api/auth/state',
        'GET /api/auth/sso/{slug}',
        'GET /api/auth/sso/{slug}/oidc/callback',
        'POST /api/auth/sso/{slug}/saml/acs',
        'GET /api/auth/sso/{slug}/saml/metadata',
        'GET /api/workspaces/{id}/sso',
        'PUT /api/workspaces/{id}/sso',
        'DELETE /api/workspaces/{id}/sso',
        'POST /api/workspaces/{id}/sso/deprovision',
        'GET /api/debates/{id}/argument-graph',
        'GET /api/debates/{id}/comments',
        'GET /api/debates/{id}/cost',
        'GET /api/debates/{id}/evidence',
        'GET /api/debates/{id}/statechart',
        'GET /api/debates/{id}/stream',
        'GET /api/debates/{id}/verdict',
        'GET /api/scores/calibration',
        'GET /ready',
        'PATCH /api/debates/{id}/visibility',
        'POST /api/auth/login',
        'POST /api/auth/logout',
        'POST /api/auth/register',
        'POST /api/billing/webhook',
        'POST /api/debates/estimate',
        'POST /api/debates/{id}/comments',
        'POST /v1/verdicts/estimate',
        'GET /v1/verdicts/{id}/evidence',
      ].sort(),
    );
  });

  it('marks no current route deprecated', () => {
    const deprecated = Object.values(doc.paths).flatMap((item) =>
      Object.values(item).filter((o) => o.deprecated),
    );
    expect(deprecated).toEqual([]);
  });

  it('passes Redocly (recommended) and Spectral (OpenAPI and OWASP rules) with no error, as served', async () => {
    const result = await lintDocument(doc);
    expect(result.output).not.toMatch(LINT_ERROR_LINE);
    expect(result.code, result.output).toBe(0);
    expect(result.output).toMatch(/Your API description is valid/);
    expect(result.output).toMatch(/0 errors/);
  });
});

describe('GET /docs', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startServer();
  });
  afterAll(async () => {
    await h.close();
  });

  it('serves an HTML page that loads Redoc from this server and the spec from /openapi.json, no CDN', async () => {
    const res = await h.request('GET', '/docs');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.text).toContain('<script src="/docs/redoc.standalone.js"></script>');
    expect(res.text).toContain('spec-url="/openapi.json"');
    expect(res.text).not.toMatch(/src="https?:\/\//i);
    expect(res.text).not.toMatch(/https?:\/\//i);
  });

  it('serves the Redoc bundle itself as JavaScript', async () => {
    const res = await h.request('GET', '/docs/redoc.standalone.js');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/javascript/);
    expect(res.text.length).toBeGreaterThan(100_000);
    expect(res.text).toMatch(/Redoc/);
  });
});
