import { validateHeaderName, validateHeaderValue } from 'node:http';
import type { Config, Services } from '@verdict/core';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { OpenApiRouter } from 'trpc-to-openapi';
import { contextFactory } from '../trpc/context.ts';
import { routeTemplate } from '../trpc/meta.ts';
import { requestLinks } from '../trpc/request-links.ts';
import type { HeaderBlock } from './header-block.ts';
import { clientRequestId, lineMs, logRequestLine, newRequestId, notedFailure } from './request-log.ts';
import { type Operation, prepareOperation, type RestDispatchOptions, runOperation } from './rest-dispatch.ts';
import { corsHeadersWithoutOrigin } from './security.ts';
import type { UsageCounting } from './usage-counting.ts';

/**
 * Request headers that send a request through Fastify instead: what changes its answer in ways only the
 * full pipeline knows (a session cookie, CORS for an Origin, a proxy's forwarding, a body). Checked by
 * name; `x-forwarded-` by prefix.
 */
const NOT_DIRECT = new Set([
  'cookie',
  'origin',
  'forwarded',
  'content-length',
  'transfer-encoding',
  'expect',
]);

/** Whether a request header leaves the request to Fastify. */
export const leavesToFastify = (name: string) => NOT_DIRECT.has(name) || name.startsWith('x-forwarded-');

/** An operation answered directly, with what its answers carry besides the procedure's own. */
export type DirectOperation = {
  operation: Operation;
  /** The route's template: where its requests are measured and counted (no parameters: its path). */
  template: string;
  /** The CORS headers for a request without an Origin, which go after the request's id. */
  cors: [name: string, value: string][];
};

/** What a direct read answers: status, the headers after helmet's, in Fastify's order, and the body. */
export type DirectAnswer = { status: number; headers: [name: string, value: string][]; body: string };

export type DirectReadsOptions = {
  router: OpenApiRouter;
  services: Services;
  config: Pick<Config, 'publicBaseUrl' | 'appUrl' | 'linksFollowRequest'>;
  /** The API answers' security headers (security-headers.ts). */
  apiHeaders: HeaderBlock;
  log: FastifyBaseLogger;
  /** How a request is measured (metrics.ts), or null when requests are not. */
  observeRequest: ((route: string, method: string, status: number, seconds: number) => void) | null;
  usage: UsageCounting | null;
  onError: RestDispatchOptions['onError'];
};

/**
 * Plain GETs of the REST operations that take no input (GET /v1/me, /v1/health, /api/keys …), answered
 * without Fastify's routing, hooks and reply — and, on uWebSockets.js, without a bridged request and
 * response: on a health check those were half of the process's CPU (BENCHMARKS.md, "The front door").
 * The answer is the one Fastify gives: the same procedure run the same way (rest-dispatch.ts
 * `runOperation`), the same status, headers in the same order and body, the same request log line, metric
 * and usage count; tests/direct-reads.test.ts compares them line by line with Fastify's.
 *
 * Plain means: GET, no query string, no cookie, no Origin, no proxy forwarding, no body. Any other
 * request, every request once the server starts closing, and every request when tracing is on (spans are
 * made by Fastify's hooks) goes through Fastify. Each server takes requests through its own entry:
 * uws/direct-reads-on-uws.ts, direct-reads-on-node.ts.
 */
export class DirectReads {
  readonly #byPath = new Map<string, DirectOperation>();
  readonly #options: DirectReadsOptions;
  readonly #createContext: ReturnType<typeof contextFactory>;
  #serving = true;

  constructor(options: DirectReadsOptions) {
    this.#options = options;
    this.#createContext = contextFactory(options.services, 'rest');
    const procedures = options.router._def.procedures as unknown as Record<string, DirectProcedure>;
    for (const [name, procedure] of Object.entries(procedures)) {
      const openapi = procedure._def.meta?.openapi;
      // Queries only: a subscription is a stream, answered by its own route.
      if (openapi?.method !== 'GET' || procedure._def.type !== 'query') continue;
      if (procedure._def.meta?.secretParameters) continue;
      const operation = prepareOperation(name, procedure, openapi.method);
      const template = routeTemplate(openapi.path);
      if (!operation.takesNoInput || template.includes(':')) continue;
      this.#byPath.set(template, { operation, template, cors: corsHeadersWithoutOrigin(template) });
    }
  }

  /** The paths answered directly. */
  get paths(): string[] {
    return [...this.#byPath.keys()];
  }

  get securityHeaders(): HeaderBlock {
    return this.#options.apiHeaders;
  }

  /** The server is closing: from now on Fastify answers everything (it closes each connection after). */
  stop() {
    this.#serving = false;
  }

  /** The operation a plain GET of `path` is answered by, if any (the request's headers are checked apart). */
  find(method: string, path: string, query: string | undefined): DirectOperation | undefined {
    if (!this.#serving || method !== 'GET' || query) return undefined;
    return this.#byPath.get(path);
  }

  /** A request for `direct`: `peer` reads the client's address when first asked (per-IP limits). */
  request(direct: DirectOperation, headers: Record<string, string>, peer: () => string | undefined) {
    return new DirectRequest(direct.template, headers, peer, this.#options.log);
  }

  /** Runs the operation: what to answer, every failure as its envelope (as rest-dispatch.ts). */
  async answer(direct: DirectOperation, request: DirectRequest): Promise<DirectAnswer> {
    const options = this.#options;
    const fastifyRequest = request as unknown as FastifyRequest;
    const answer = await runOperation(
      direct.operation,
      fastifyRequest,
      () => ({ ctx: this.#createContext({ req: fastifyRequest, res: NO_REPLY }), input: undefined }),
      options.onError,
      (req) => requestLinks(req, options.config),
    );
    // As Fastify's reply has them: the request's id, CORS, Content-Type with its charset, then the
    // procedure's by lower-case name.
    const headers: [string, string][] = [['x-request-id', request.id], ...direct.cors];
    headers.push([
      'content-type',
      answer.body === undefined ? 'application/json' : 'application/json; charset=utf-8',
    ]);
    for (const name in answer.headers) headers.push(checkedHeader(name, answer.headers[name] as string));
    return { status: answer.status, headers, body: answer.body ?? '' };
  }

  /** After the answer is written: the request's log line, its metric and, for a key no one looked up, its usage. */
  answered(direct: DirectOperation, request: DirectRequest, status: number) {
    const options = this.#options;
    const seconds = request.elapsedSeconds();
    const level = status >= 500 ? 'error' : 'info';
    if ((options.log as LevelAware).isLevelEnabled?.(level) !== false) {
      const callerId = clientRequestId(request.headers['x-request-id']);
      const line = { method: 'GET', url: request.url, status, ms: lineMs(seconds * 1000) };
      logRequestLine(
        request.log,
        callerId ? { ...line, clientRequestId: callerId } : line,
        notedFailure(request.raw),
      );
    }
    options.observeRequest?.(direct.template, 'GET', status, seconds);
    options.usage?.countIfUnlooked(request as unknown as FastifyRequest, direct.template);
  }
}

/** Where a server finds the direct reads, set once the app is built (null: every request to Fastify). */
export type DirectReadsSlot = { reads: DirectReads | null };

/** pino's loggers say which levels they write; a logger that cannot say writes them all. */
type LevelAware = { isLevelEnabled?: (level: string) => boolean };

type DirectProcedure = Parameters<typeof prepareOperation>[1] & {
  _def: { type: string; meta?: { openapi?: { method: string; path: string }; secretParameters?: unknown } };
};

/** The reply a procedure's context holds: no procedure these answer touches it (none sets a cookie). */
const NO_REPLY = undefined as never;

/** Names checked once (they come from the code); values as Node's http checks them. */
const checkedNames = new Set<string>();
const INVALID_VALUE = /[^\t\x20-\x7e\x80-\xff]/;

/** One header of the procedure's, as Fastify writes it (lower-case name), with Node's checks. */
function checkedHeader(name: string, value: string): [string, string] {
  const lower = name.toLowerCase();
  if (!checkedNames.has(lower)) {
    validateHeaderName(name);
    checkedNames.add(lower);
  }
  if (INVALID_VALUE.test(value)) validateHeaderValue(name, value);
  return [lower, value];
}

/**
 * What the procedures and their authentication read of a request (FastifyRequest's fields): its id,
 * method, path, headers, no cookies, its peer's address (the socket's: plain requests have no proxy
 * headers), host and protocol for links, the route's template, and a log.
 */
export class DirectRequest {
  readonly id = newRequestId();
  readonly method = 'GET';
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly cookies: Record<string, string> = {};
  readonly protocol = 'http';
  readonly routeOptions: { url: string; config: Record<string, never> };
  /** What marks and notes about the request are kept on (key-lookup.ts, request-log.ts). */
  readonly raw: object = {};
  /** The client went away before the answer was written. */
  aborted = false;
  /** The answer has been handed to the server. */
  written = false;
  readonly #startedAt = process.hrtime.bigint();
  #peer: (() => string | undefined) | null;
  #ip: string | undefined;
  readonly #baseLog: FastifyBaseLogger;
  #log: FastifyBaseLogger | null = null;

  constructor(
    template: string,
    headers: Record<string, string>,
    peer: () => string | undefined,
    log: FastifyBaseLogger,
  ) {
    this.url = template;
    this.headers = headers;
    this.#peer = peer;
    this.#baseLog = log;
    this.routeOptions = { url: template, config: {} };
  }

  /** The request's log, as Fastify's: the server's with the request's id; made when first used. */
  get log(): FastifyBaseLogger {
    this.#log ??= this.#baseLog.child({ reqId: this.id });
    return this.#log;
  }

  get host(): string {
    return this.headers.host ?? '';
  }

  get ip(): string | undefined {
    if (this.#peer !== null) {
      this.#ip = this.#peer();
      this.#peer = null;
    }
    return this.#ip;
  }

  /** The client is gone, or the answer written: the peer may no longer be read. */
  settle(aborted: boolean) {
    this.#peer = null;
    if (aborted) this.aborted = true;
    else this.written = true;
  }

  elapsedSeconds(): number {
    return Number(process.hrtime.bigint() - this.#startedAt) / 1e9;
  }
}
