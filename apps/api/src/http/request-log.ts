import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import { loggedUrl } from './url-redaction.ts';

/** Failures noted while a request was served, to go on its one log line (keyed by the raw request). */
const failures = new WeakMap<object, unknown>();

/**
 * Records why a request failed, for its log line. Takes a Fastify request or the object a tRPC adapter hands
 * to its error hook (a Fastify request too, or the raw message).
 */
export function noteRequestFailure(req: unknown, error: unknown) {
  const raw = (req as { raw?: IncomingMessage } | null)?.raw ?? req;
  if (raw && typeof raw === 'object') failures.set(raw, error);
}

/**
 * Ids are the server's own; a caller's X-Request-Id is kept on the line when it is short and printable.
 * Node builds a UUID by joining its hex pieces, which V8 keeps as a tree of a dozen string pieces (~0.4 KiB)
 * until something reads a character of it; reading one flattens it in place to one string. A stream holds
 * its request's id for as long as it is open (the log line at its end), so the id is flattened at once.
 */
export const newRequestId = () => {
  const id = randomUUID();
  id.charCodeAt(0);
  return id;
};

/** A caller's X-Request-Id, when it is short and printable enough to go on the line. */
export function clientRequestId(value: string | string[] | undefined): string | undefined {
  return typeof value === 'string' && /^[\x21-\x7e]{1,128}$/.test(value) ? value : undefined;
}

/** What one request's line says. */
export type RequestLine = {
  method: string;
  url: string;
  status: number;
  ms: number;
  clientRequestId?: string;
};

type LineLogger = {
  info: (fields: object, message: string) => void;
  error: (fields: object, message: string) => void;
};

/** Writes a request's line: an error with its failure for a 5xx, else info. */
export function logRequestLine(log: LineLogger, line: RequestLine, failure: unknown) {
  const message = `${line.method} ${line.url} ${line.status} ${line.ms} ms`;
  if (line.status >= 500) log.error({ ...line, err: failure }, message);
  else log.info(line, message);
}

/** Milliseconds to one decimal, as the line gives them. */
export const lineMs = (ms: number) => Math.round(ms * 10) / 10;

/**
 * One line per request, when it completes: method, path, status, duration, and the failure behind a 5xx
 * (noted by the error handlers instead of logged on a line of its own). The URL's secrets (the parameters its
 * route declares secret, and query parameters named like credentials) are [redacted]: url-redaction.ts.
 */
export class OneLinePerRequest extends LogController {
  override incomingRequest() {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply) {
    const callerId = clientRequestId(request.headers['x-request-id']);
    const line: RequestLine = {
      method: request.method,
      url: loggedUrl(request),
      status: reply.statusCode,
      ms: lineMs(reply.elapsedTime),
      ...(callerId ? { clientRequestId: callerId } : {}),
    };
    logRequestLine(reply.log, line, error ?? failures.get(request.raw));
  }
}

/** The failure noted for a request (noteRequestFailure), keyed by its raw request. */
export const notedFailure = (raw: object): unknown => failures.get(raw);
