import type { Socket } from 'node:net';
import { type ErrorCode, errorStatus } from '@verdict/contracts';
import { AppError } from '@verdict/core';
import type { FastifyInstance } from 'fastify';
import { envelopeOf } from './envelope.ts';

/**
 * Deeper than any request body of this API needs (the deepest, a key's config, is 3 levels), shallow enough
 * that no recursive walk over a body — zod's, the NUL scan's — can run out of stack.
 */
export const MAX_JSON_DEPTH = 32;

/** True when the JSON text nests arrays or objects deeper than `max` (strings are skipped, not parsed). */
export function jsonDepthExceeds(text: string, max = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

/**
 * JSON bodies: an empty body is accepted (a bodyless POST is legitimate here and Fastify's parser would
 * refuse it), and a body nested deeper than MAX_JSON_DEPTH is refused before it is parsed.
 */
export function installJsonBodyParser(app: FastifyInstance) {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    if (jsonDepthExceeds(text)) {
      return done(
        new AppError('VALIDATION_ERROR', `Request body is nested deeper than ${MAX_JSON_DEPTH} levels`, {
          details: [{ path: '', message: `nested deeper than ${MAX_JSON_DEPTH} levels`, code: 'too_deep' }],
        }),
      );
    }
    return parseJson(request, text, done);
  });
}

/**
 * A REST body is a JSON object, or nothing. trpc-to-openapi spreads the body into the procedure's input, so
 * `null`, `[]` or `42` would otherwise read as `{}`: a PATCH that changes nothing, a fork that was asked
 * nothing, answered 2xx although the document says the body is an object.
 */
export function refuseNonObjectBody(body: unknown): AppError | null {
  if (body === undefined || (typeof body === 'object' && body !== null && !Array.isArray(body))) return null;
  return new AppError('VALIDATION_ERROR', 'The request body must be a JSON object', {
    details: [{ path: '', message: 'Expected a JSON object', code: 'invalid_type' }],
  });
}

/**
 * trpc-to-openapi drops a query parameter whose value is empty, so `?limit=` read as no limit at all and
 * `?search=` as no search, where the document says `limit` is an integer and `search` 1–200 characters.
 * Wrapping the empty value in a one-item array (which it unwraps) lets the input schema judge it: a
 * parameter the route declares is refused like any other bad value, one it does not declare is ignored.
 */
export function keepEmptyQueryValues(query: unknown) {
  if (typeof query !== 'object' || query === null) return;
  const values = query as Record<string, unknown>;
  for (const [name, value] of Object.entries(values)) if (value === '') values[name] = [''];
}

const CLIENT_ERRORS: Record<string, [ErrorCode, string]> = {
  ERR_HTTP_REQUEST_TIMEOUT: ['REQUEST_TIMEOUT', 'The request was not received in time'],
  HPE_HEADER_OVERFLOW: ['REQUEST_HEADER_FIELDS_TOO_LARGE', 'Request headers are too large'],
};

/**
 * Failures of Node's HTTP parser (malformed request line or headers, a request that never finishes arriving)
 * happen before Fastify sees a request: the answer is written to the socket by hand, still as the envelope.
 */
export function clientErrorHandler(err: Error & { code?: string }, socket: Socket) {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const [code, message] = CLIENT_ERRORS[err.code ?? ''] ?? [
    'VALIDATION_ERROR',
    'The request is not valid HTTP',
  ];
  const body = JSON.stringify(envelopeOf(new AppError(code, message)));
  const status = errorStatus(code);
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_TEXT[status] ?? 'Error'}\r\n` +
      'Content-Type: application/json\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
  );
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  431: 'Request Header Fields Too Large',
};
