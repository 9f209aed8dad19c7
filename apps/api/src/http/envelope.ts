import type { ServerResponse } from 'node:http';
import { type ErrorCode, type ErrorEnvelope, errorStatus } from '@verdict/contracts';
import { AppError, unexpectedFailure } from '@verdict/core';
import type { FastifyError, FastifyReply } from 'fastify';
import { type RequestLinks, rebaseExtra } from '../trpc/request-links.ts';

/** The error's envelope; `links`: the answer's link bases, which its links (upgradeUrl) are put on. */
export function envelopeOf(error: AppError, links?: RequestLinks): ErrorEnvelope {
  return {
    error: {
      ...rebaseExtra(error.extra, links),
      code: error.code,
      message: error.message,
      ...(error.details ? { details: error.details } : {}),
    },
  };
}

/**
 * The envelope on a raw response, for a route that took the response over (a stream that fails after
 * `reply.hijack()`, before sending anything): the same status, headers and body as sendAppError.
 */
export function writeAppError(res: ServerResponse, error: AppError) {
  res.writeHead(errorStatus(error.code), { 'Content-Type': 'application/json', ...error.headers });
  res.end(JSON.stringify(envelopeOf(error)));
}

export function sendAppError(reply: FastifyReply, error: AppError) {
  return reply
    .code(errorStatus(error.code))
    .headers(error.headers)
    .type('application/json')
    .send(envelopeOf(error, reply.server.linksOf?.(reply.request)));
}

const FASTIFY_CODES: Record<string, [ErrorCode, string]> = {
  FST_ERR_CTP_INVALID_JSON_BODY: ['VALIDATION_ERROR', 'Request body is not valid JSON'],
  FST_ERR_CTP_EMPTY_JSON_BODY: ['VALIDATION_ERROR', 'Request body is empty'],
  FST_ERR_CTP_BODY_TOO_LARGE: ['PAYLOAD_TOO_LARGE', 'Request body too large'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: ['UNSUPPORTED_MEDIA_TYPE', 'Content-Type must be application/json'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: ['VALIDATION_ERROR', 'Content-Length does not match the body'],
};

/** Fastify's own failures (body parsing, limits) and anything unexpected, as envelopes. */
export function fromFastifyError(error: FastifyError): AppError {
  if (error instanceof AppError) return error;
  const known = FASTIFY_CODES[error.code];
  if (known) {
    const [code, message] = known;
    const details = code === 'VALIDATION_ERROR' ? [{ path: '', message, code: 'invalid_body' }] : undefined;
    return new AppError(code, message, { details });
  }
  if (error instanceof SyntaxError || (error.statusCode === 400 && error.code === undefined)) {
    return new AppError('VALIDATION_ERROR', 'Request body is not valid JSON', {
      details: [{ path: '', message: 'Malformed JSON', code: 'invalid_json' }],
    });
  }
  return unexpectedFailure(error);
}
