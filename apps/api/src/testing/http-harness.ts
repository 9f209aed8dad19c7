import type { AddressInfo } from 'node:net';
import {
  type CreatedApiKey,
  type ErrorCode,
  ErrorEnvelope,
  errorStatus,
  type SessionInfo,
} from '@verdict/contracts';
import type { Core, CoreOptions } from '@verdict/core';
import { createTestCore, newUserCredentials, type TestDatabase } from '@verdict/core/testing';
import type { FastifyInstance } from 'fastify';
import type { OpenApiRouter } from 'trpc-to-openapi';
import { expect } from 'vitest';
import { SESSION_COOKIE } from '../auth/credentials.ts';
import { buildServer, type ServerOptions } from '../http/server.ts';
import type { AppRouter } from '../router.ts';

export type RequestOptions = {
  /** Sent as JSON with Content-Type application/json. */
  body?: unknown;
  /** Sent verbatim, as text or as bytes (which need not be UTF-8); Content-Type is `contentType` (default application/json). */
  rawBody?: string | Uint8Array;
  contentType?: string;
  /** Session cookie value (the token only). */
  cookie?: string;
  /** API key, sent as `Authorization: Bearer` unless keyHeader says X-Api-Key. */
  key?: string;
  keyHeader?: 'bearer' | 'x-api-key';
  headers?: Record<string, string>;
};

export type HttpResult<T = unknown> = {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed JSON body; undefined when the body is empty or not JSON. */
  json: T;
};

export type Harness = {
  app: FastifyInstance;
  core: Core;
  schema: string;
  baseUrl: string;
  request: <T = unknown>(method: string, path: string, options?: RequestOptions) => Promise<HttpResult<T>>;
  close: () => Promise<void>;
};

export type StartOptions = {
  /** Environment overrides for the test config. DATABASE_SCHEMA joins an existing schema (not dropped on close). */
  env?: Record<string, string>;
  coreOptions?: CoreOptions;
  /** `pglite`: the core on embedded PGlite in a temporary DATA_DIR, as `npm start` runs (default postgres). */
  database?: TestDatabase;
  router?: AppRouter | OpenApiRouter;
  /** The server's logger (tests that read log lines pass one); silent by default. */
  logger?: ServerOptions['logger'];
  notificationPingMs?: number;
  /** Serving or draining, for tests of GET /ready and shutdown; default always serving. */
  lifecycle?: ServerOptions['lifecycle'];
};

/**
 * A real server on a random loopback port over a real PostgreSQL schema of its own (or a shared one), or
 * over embedded PGlite in a DATA_DIR of its own (`database: 'pglite'`).
 */
export async function startServer(options: StartOptions = {}): Promise<Harness> {
  const env = options.env ?? {};
  const joinsSchema = env.DATABASE_SCHEMA !== undefined;
  const test = await createTestCore(env, {
    ...options.coreOptions,
    database: options.database ?? 'postgres',
  });
  const app = await buildServer({
    core: test.core,
    ...(options.router ? { router: options.router } : {}),
    ...(options.logger ? { logger: options.logger } : {}),
    ...(options.notificationPingMs ? { notificationPingMs: options.notificationPingMs } : {}),
    ...(options.lifecycle ? { lifecycle: options.lifecycle } : {}),
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}`;
  return {
    app,
    core: test.core,
    schema: test.schema,
    baseUrl,
    request: (method, path, requestOptions) => httpRequest(baseUrl, method, path, requestOptions),
    close: async () => {
      await app.close();
      if (joinsSchema) await test.core.close();
      else await test.cleanup();
    },
  };
}

export async function httpRequest<T = unknown>(
  baseUrl: string,
  method: string,
  path: string,
  options: RequestOptions = {},
): Promise<HttpResult<T>> {
  const headers: Record<string, string> = { ...options.headers };
  let body: string | Uint8Array | undefined;
  if (options.rawBody !== undefined) {
    body = options.rawBody;
    headers['content-type'] = options.contentType ?? 'application/json';
  } else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] = options.contentType ?? 'application/json';
  }
  if (options.cookie) headers.cookie = `${SESSION_COOKIE}=${options.cookie}`;
  if (options.key) {
    if (options.keyHeader === 'x-api-key') headers['x-api-key'] = options.key;
    else headers.authorization = `Bearer ${options.key}`;
  }
  const response = await fetch(`${baseUrl}${path}`, { method, headers, body });
  const text = await response.text();
  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json: json as T };
}

/** The Set-Cookie line of the session cookie, or undefined. */
export function sessionSetCookie(headers: Headers): string | undefined {
  return headers.getSetCookie().find((line) => line.startsWith(`${SESSION_COOKIE}=`));
}

/** The session token carried by a Set-Cookie header. */
export function sessionToken(headers: Headers): string {
  const line = sessionSetCookie(headers);
  const token = line?.split(';')[0]?.slice(SESSION_COOKIE.length + 1);
  if (!token) throw new Error('response set no session cookie');
  return token;
}

export type TestUser = { email: string; password: string; cookie: string; session: SessionInfo };

/** A per-minute limit no test reaches, so tests that are not about rate limits are never throttled. */
export const ROOMY_RATE_LIMIT = 100_000;

/**
 * Registers a fresh user through the API (credentials from newUserCredentials, as the end-to-end tests'
 * registerUser does over the generated client) and returns its session cookie. The account gets
 * ROOMY_RATE_LIMIT (the operator's per-account setting, set on the harness's core) unless `rateLimit: 'plan'`
 * keeps the plan's own limit.
 */
export async function registerUser(
  harness: Harness,
  overrides: Partial<{ email: string; password: string; name: string; rateLimit: 'plan' | number }> = {},
): Promise<TestUser> {
  const fresh = newUserCredentials();
  const email = overrides.email ?? fresh.email;
  const password = overrides.password ?? fresh.password;
  const res = await harness.request<SessionInfo>('POST', '/api/auth/register', {
    body: { email, password, name: overrides.name ?? fresh.name },
  });
  if (res.status !== 201) throw new Error(`register failed: ${res.status} ${res.text}`);
  const rateLimit = overrides.rateLimit ?? ROOMY_RATE_LIMIT;
  if (rateLimit !== 'plan') await harness.core.accounts.setRateLimit(res.json.user.id, rateLimit);
  return { email, password, cookie: sessionToken(res.headers), session: res.json };
}

/** Creates an API key for the signed-in user (session cookie) and returns the creation response. */
export async function createKey(
  harness: Harness,
  user: { cookie: string },
  input: { name?: string; config?: unknown } = {},
): Promise<CreatedApiKey> {
  const res = await harness.request<CreatedApiKey>('POST', '/api/keys', {
    cookie: user.cookie,
    body: { name: input.name ?? 'test key', ...(input.config !== undefined ? { config: input.config } : {}) },
  });
  if (res.status !== 201) throw new Error(`key creation failed: ${res.status} ${res.text}`);
  return res.json;
}

/**
 * Asserts an error response: the status of the code from the one table, a JSON content type, and a body that
 * is exactly the envelope (only `error` at the top; inside, code, message, details and the named extras).
 */
export function expectError(
  res: HttpResult,
  code: ErrorCode,
  options: { extras?: string[] } = {},
): ErrorEnvelope['error'] {
  expect(
    { status: res.status, code: (res.json as { error?: { code?: unknown } } | undefined)?.error?.code },
    res.text,
  ).toEqual({ status: errorStatus(code), code });
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  const envelope = ErrorEnvelope.parse(res.json);
  expect(Object.keys(res.json as object)).toEqual(['error']);
  const allowed = new Set(['code', 'message', 'details', ...(options.extras ?? [])]);
  expect(Object.keys(envelope.error).filter((k) => !allowed.has(k))).toEqual([]);
  expect(envelope.error.message.length).toBeGreaterThan(0);
  return envelope.error;
}
