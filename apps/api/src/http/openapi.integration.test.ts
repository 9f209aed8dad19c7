import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appRouter } from '../router.ts';
import { type Harness, startServer } from '../testing/http-harness.ts';
import type { Meta } from '../trpc/init.ts';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');
const BIN = join(REPO_ROOT, 'node_modules/.bin');

type Operation = {
  operationId?: string;
  security?: Record<string, string[]>[];
  deprecated?: boolean;
  responses: Record<string, { content?: Record<string, { schema?: { $ref?: string } }>; headers?: object }>;
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

/** Runs `redocly lint --extends recommended` on a document; Node 24 from node_modules/.bin, no network. */
async function redoclyLint(document: object): Promise<{ code: number; output: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'verdict-openapi-'));
  try {
    const file = join(dir, 'openapi.json');
    await writeFile(file, JSON.stringify(document, null, 2));
    return await promisify(execFile)(
      join(BIN, 'redocly'),
      ['lint', '--extends', 'recommended', '--format', 'stylish', file],
      {
        cwd: dir,
        env: {
          ...process.env,
          PATH: `${BIN}:${process.env.PATH ?? ''}`,
          REDOCLY_TELEMETRY: 'off',
          REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
        },
        timeout: 25_000,
      },
    ).then(
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

describe('GET /openapi.json', () => {
  let h: Harness;
  let doc: Document;
  const op = (method: string, path: string) => {
    const operation = doc.paths[path]?.[method];
    if (!operation) throw new Error(`no ${method} ${path} in the document`);
    return operation;
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

  it('is OpenAPI 3.1 with the public base URL as server', () => {
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    expect(doc.info.title.length).toBeGreaterThan(0);
    expect(doc.servers?.map((s) => s.url)).toEqual(['https://api.example.test']);
  });

  it('documents every REST route of the router, and nothing else', () => {
    const expected = routerRoutes();
    expect(expected.length).toBeGreaterThanOrEqual(9);
    expect(expected).toEqual(
      expect.arrayContaining(['GET /v1/me', 'POST /api/keys', 'DELETE /api/keys/{id}']),
    );
    expect(documentRoutes(doc)).toEqual(expected);
  });

  it('gives every operation a unique operationId', () => {
    const ids = Object.values(doc.paths).flatMap((item) => Object.values(item).map((o) => o.operationId));
    expect(ids.every((id) => typeof id === 'string' && id.length > 0)).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('points every error response (4xx, 5xx) at the ErrorEnvelope component', () => {
    expect(doc.components.schemas.ErrorEnvelope).toBeDefined();
    let errorResponses = 0;
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        expect(operation.responses['500'], `${method} ${path} documents 500`).toBeDefined();
        for (const [status, response] of Object.entries(operation.responses)) {
          if (Number(status) < 400) continue;
          errorResponses++;
          expect(response.content?.['application/json']?.schema?.$ref, `${method} ${path} ${status}`).toBe(
            '#/components/schemas/ErrorEnvelope',
          );
        }
      }
    }
    expect(errorResponses).toBeGreaterThan(20);
  });

  it('declares the bearerAuth, apiKeyHeader and sessionCookie security schemes', () => {
    const schemes = doc.components.securitySchemes;
    expect(Object.keys(schemes).sort()).toEqual(['apiKeyHeader', 'bearerAuth', 'sessionCookie']);
    expect(schemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(schemes.apiKeyHeader).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-Api-Key' });
    expect(schemes.sessionCookie).toMatchObject({ type: 'apiKey', in: 'cookie', name: 'verdict_session' });
  });

  it('states per-route security: none for health and auth, key for /v1, key or session for /api/keys', () => {
    expect(op('get', '/v1/health').security).toEqual([]);
    expect(op('post', '/api/auth/login').security).toEqual([]);
    expect(op('get', '/v1/me').security).toEqual([{ bearerAuth: [] }, { apiKeyHeader: [] }]);
    for (const [method, path] of [
      ['get', '/api/keys'],
      ['post', '/api/keys'],
      ['patch', '/api/keys/{id}'],
      ['delete', '/api/keys/{id}'],
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

  it('documents rate-limit headers and 429 with Retry-After on keyed routes only', () => {
    const me = op('get', '/v1/me').responses;
    expect(Object.keys(me['200']?.headers ?? {})).toEqual(
      expect.arrayContaining(['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']),
    );
    expect(Object.keys(me['429']?.headers ?? {})).toContain('Retry-After');
    expect(op('get', '/v1/health').responses['429']).toBeUndefined();
  });

  it('marks no current route deprecated', () => {
    const deprecated = Object.values(doc.paths).flatMap((item) =>
      Object.values(item).filter((o) => o.deprecated),
    );
    expect(deprecated).toEqual([]);
  });

  describe('the ErrorEnvelope component', () => {
    it('defines ErrorEnvelope as a real schema with a required error object', () => {
      const envelope = doc.components.schemas.ErrorEnvelope as {
        $ref?: string;
        properties?: { error?: { required?: string[] } };
      };
      expect(envelope.$ref).toBeUndefined();
      expect(envelope.properties?.error?.required).toEqual(expect.arrayContaining(['code', 'message']));
    });

    it('passes Redocly lint with the recommended rules as served', async () => {
      const result = await redoclyLint(doc);
      expect(result.output).not.toMatch(LINT_ERROR_LINE);
      expect(result.code, result.output).toBe(0);
      expect(result.output).toMatch(/Your API description is valid/);
    });
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
