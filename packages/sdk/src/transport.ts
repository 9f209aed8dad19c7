import { type Backoff, backoffDelay, sleep } from './backoff.ts';
import { errorFromResponse, VerdictError } from './errors.ts';

/** Per-call options every method of the client takes. */
export type RequestOptions = {
  /** Cancels the call (and its retries); the call rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Time allowed for each attempt, answer body included, in ms; overrides the client's `timeoutMs`. */
  timeoutMs?: number;
  /** Retries of this call (where repeating is safe, see `send`); overrides the client's `maxRetries`. */
  maxRetries?: number;
  /** The Idempotency-Key of a create; one is generated when absent. */
  idempotencyKey?: string;
  /** Extra headers for this call. */
  headers?: Record<string, string>;
};

/** One pause before a retry, as the client's `waitBeforeRetry` is told of it. */
export type RetryWait = {
  /** Which retry the pause comes before: 1 for the first. */
  attempt: number;
  /** The pause in ms: Retry-After (capped by `backoff.maxDelayMs`), else the back-off's. */
  delayMs: number;
  /** The answer that is retried; `error.retryAfterMs` is what the server asked for, uncapped. */
  error: VerdictError;
};

export type TransportConfig = {
  fetch: typeof globalThis.fetch;
  timeoutMs: number;
  maxRetries: number;
  backoff: Backoff;
  /** Sits out the pause before a retry; a rejection ends the call with that reason. */
  waitBeforeRetry: (wait: RetryWait, signal?: AbortSignal) => Promise<void>;
};

/** Pauses for the retry's delay: the default `waitBeforeRetry`. */
export const sleepBeforeRetry = (wait: RetryWait, signal?: AbortSignal) => sleep(wait.delayMs, signal);

/** Creates the server de-duplicates by Idempotency-Key: the only POSTs that may be sent twice. */
const IDEMPOTENT_CREATES = [/^\/api\/debates$/, /^\/v1\/verdicts$/, /^\/api\/debates\/[^/]+\/fork$/];

export const isIdempotentCreate = (method: string, path: string) =>
  method === 'POST' && IDEMPOTENT_CREATES.some((pattern) => pattern.test(path));

/**
 * Answers worth another attempt: a rate limit that will lift (RATE_LIMITED, or any 429 with Retry-After;
 * not a spent monthly quota), an overloaded or unreachable server, a gateway's error.
 */
export function isTransient(error: VerdictError): boolean {
  if (error.status === 0) return true;
  if (error.status === 429) return error.code === 'RATE_LIMITED' || error.retryAfterMs !== null;
  return error.status === 502 || error.status === 503 || error.status === 504;
}

/**
 * A 429 RATE_LIMITED is the budget's refusal, given before the call is acted on: repeating it is safe
 * whatever the method (a POST that is not a create included). Other transient failures (a 503, a lost
 * connection) may come after the server acted, so only calls safe to repeat are retried on those.
 */
export const refusedBeforeActing = (error: VerdictError) =>
  error.status === 429 && error.code === 'RATE_LIMITED';

/** Whether a failed attempt is tried again: a transient failure, of a call it is safe to repeat. */
export const mayRetry = (error: VerdictError, repeatable: boolean) =>
  isTransient(error) && (repeatable || refusedBeforeActing(error));

const newIdempotencyKey = () => `sdk-${globalThis.crypto.randomUUID()}`;

/**
 * Sends one call: the per-attempt timeout, retries where repeating is safe (GET, HEAD, a create carrying an
 * Idempotency-Key, which one is added to; any call the rate limit refused) with back-off honouring
 * Retry-After, waited out by `waitBeforeRetry`, and an error answer turned into a VerdictError.
 * `stream: true` hands back the response once its headers arrive (the timeout then covers only the wait for
 * them); otherwise the body is read within the timeout.
 */
export async function send(
  config: TransportConfig,
  request: Request,
  options: RequestOptions & { stream?: boolean } = {},
): Promise<Response> {
  const method = request.method.toUpperCase();
  const headers = new Headers(request.headers);
  for (const [name, value] of Object.entries(options.headers ?? {})) headers.set(name, value);
  const path = new URL(request.url).pathname;
  if (isIdempotentCreate(method, path) && !headers.has('idempotency-key')) {
    headers.set('idempotency-key', options.idempotencyKey ?? newIdempotencyKey());
  }
  const repeatable = method === 'GET' || method === 'HEAD' || headers.has('idempotency-key');
  const maxRetries = options.maxRetries ?? config.maxRetries;
  const body = method === 'GET' || method === 'HEAD' ? undefined : await request.arrayBuffer();
  const callerSignals = [options.signal, request.signal].filter((s): s is AbortSignal => s !== undefined);
  const caller = callerSignals.length > 0 ? AbortSignal.any(callerSignals) : undefined;
  const timeoutMs = options.timeoutMs ?? config.timeoutMs;

  for (let attempt = 0; ; attempt++) {
    let error: VerdictError;
    try {
      return await attemptOnce(
        config,
        request.url,
        { method, headers, body },
        caller,
        timeoutMs,
        options.stream,
      );
    } catch (err) {
      if (caller?.aborted) throw caller.reason;
      if (!(err instanceof VerdictError)) throw err;
      error = err;
    }
    if (attempt >= maxRetries || !mayRetry(error, repeatable)) throw error;
    const delayMs = backoffDelay(attempt, error.retryAfterMs, config.backoff);
    await config.waitBeforeRetry({ attempt: attempt + 1, delayMs, error }, caller);
    if (caller?.aborted) throw caller.reason;
  }
}

async function attemptOnce(
  config: TransportConfig,
  url: string,
  init: { method: string; headers: Headers; body: ArrayBuffer | undefined },
  caller: AbortSignal | undefined,
  timeoutMs: number,
  stream = false,
): Promise<Response> {
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(), timeoutMs);
  const signal = caller ? AbortSignal.any([caller, timeout.signal]) : timeout.signal;
  try {
    let response: Response;
    try {
      response = await config.fetch(url, { ...init, signal, redirect: 'follow' });
    } catch (cause) {
      throw networkError(cause, timeout.signal.aborted, timeoutMs, caller);
    }
    if (!response.ok) throw await errorFromResponse(response);
    if (stream) return response;
    try {
      const bytes = await response.arrayBuffer();
      const empty = response.status === 204 || response.status === 205 || response.status === 304;
      return new Response(empty ? null : bytes, {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
      });
    } catch (cause) {
      throw networkError(cause, timeout.signal.aborted, timeoutMs, caller);
    }
  } finally {
    clearTimeout(timer);
  }
}

function networkError(cause: unknown, timedOut: boolean, timeoutMs: number, caller?: AbortSignal) {
  if (caller?.aborted) return caller.reason;
  return timedOut
    ? new VerdictError({
        status: 0,
        code: 'REQUEST_TIMEOUT',
        message: `No answer within ${timeoutMs} ms`,
        cause,
      })
    : new VerdictError({
        status: 0,
        code: 'CONNECTION_ERROR',
        message: `Cannot reach the server: ${cause instanceof Error ? cause.message : String(cause)}`,
        cause,
      });
}
