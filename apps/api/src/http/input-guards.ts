import { isUtf8 } from 'node:buffer';
import type { Socket } from 'node:net';
import { pipeline, Transform } from 'node:stream';
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
 * refuse it), a body that is not UTF-8 (JSON's only encoding, RFC 8259) is refused rather than read with
 * U+FFFD in place of its bad bytes (a name stored as "caf\uFFFD"), and a body nested deeper than
 * MAX_JSON_DEPTH is refused before it is parsed.
 */
export function installJsonBodyParser(app: FastifyInstance) {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  // Bytes, not text: Fastify's 'string' decodes them with toString, which replaces bad bytes without a word.
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    const bytes = typeof body === 'string' ? Buffer.from(body) : body;
    if (!isUtf8(bytes)) return done(notUtf8());
    const text = bytes.toString('utf8');
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

const notUtf8 = () =>
  new AppError('VALIDATION_ERROR', 'Request body is not valid UTF-8', {
    details: [{ path: '', message: 'Request body is not valid UTF-8', code: 'invalid_encoding' }],
  });

const isJsonType = (contentType: string | undefined) =>
  (contentType ?? '').split(';', 1)[0]?.trim().toLowerCase() === 'application/json';

/**
 * tRPC's JSON bodies are checked for UTF-8 as their bytes arrive: @trpc/server's Fastify plugin installs a
 * JSON parser of its own in its scope (the text as Fastify decodes it, bad bytes replaced), which
 * installJsonBodyParser's cannot replace. Register it in a scope around that plugin.
 */
export function refuseNonUtf8JsonBodies(scope: FastifyInstance) {
  scope.addHook('preParsing', (request, _reply, payload, done) => {
    if (!isJsonType(request.headers['content-type'])) return done(null, payload);
    const decoder = new TextDecoder('utf-8', { fatal: true });
    const checked = new Transform({
      transform(chunk: Buffer, _encoding, next) {
        try {
          decoder.decode(chunk, { stream: true });
          next(null, chunk);
        } catch {
          next(notUtf8());
        }
      },
      flush(next) {
        try {
          decoder.decode(); // a sequence cut short at the end
          next();
        } catch {
          next(notUtf8());
        }
      },
    });
    // The body parser hears the failure as an error of the stream it reads: answered 400 in the envelope.
    done(
      null,
      pipeline(payload, checked, () => {}),
    );
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
