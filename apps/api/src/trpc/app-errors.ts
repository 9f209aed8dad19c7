import type { TRPCError } from '@trpc/server';
import type { TRPC_ERROR_CODE_KEY } from '@trpc/server/rpc';
import type { ValidationIssue } from '@verdict/contracts';
import { AppError, unexpectedFailure } from '@verdict/core';

type ZodLikeIssue = { path: PropertyKey[]; message: string; code: string };

function isZodError(err: unknown): err is Error & { issues: ZodLikeIssue[] } {
  return err instanceof Error && Array.isArray((err as { issues?: unknown }).issues);
}

/** As many issues as the envelope lists (its schema's maximum). */
export const MAX_VALIDATION_DETAILS = 100;

export function zodIssuesToDetails(issues: ZodLikeIssue[]): ValidationIssue[] {
  // The envelope documents at most MAX_VALIDATION_DETAILS; an array of 500 bad ids would say 500 times
  // what the first 100 already say.
  return issues.slice(0, MAX_VALIDATION_DETAILS).map((issue) => ({
    path: issue.path.map(String).join('.'),
    message: issue.message,
    code: issue.code,
  }));
}

const cache = new WeakMap<TRPCError, AppError>();

/**
 * The one translation from whatever a procedure threw to an AppError with a stable code. An error we did
 * not anticipate becomes INTERNAL_ERROR with a message that says nothing about its cause.
 */
export function toAppError(error: TRPCError): AppError {
  const cached = cache.get(error);
  if (cached) return cached;
  const appError = translate(error);
  cache.set(error, appError);
  return appError;
}

function translate(error: TRPCError): AppError {
  const cause = error.cause;
  if (cause instanceof AppError) return cause;
  switch (error.code) {
    case 'BAD_REQUEST':
      return isZodError(cause)
        ? new AppError('VALIDATION_ERROR', 'Request validation failed', {
            details: zodIssuesToDetails(cause.issues),
          })
        : new AppError('VALIDATION_ERROR', error.message);
    case 'PARSE_ERROR':
      return new AppError('VALIDATION_ERROR', 'Request body is not valid JSON', {
        details: [{ path: '', message: 'Malformed JSON', code: 'invalid_json' }],
      });
    case 'NOT_FOUND':
      return new AppError('NOT_FOUND', 'Route not found');
    case 'METHOD_NOT_SUPPORTED':
      return new AppError('METHOD_NOT_ALLOWED', 'HTTP method not supported on this route');
    case 'UNSUPPORTED_MEDIA_TYPE':
      return new AppError('UNSUPPORTED_MEDIA_TYPE', 'Content-Type must be application/json');
    case 'PAYLOAD_TOO_LARGE':
      return new AppError('PAYLOAD_TOO_LARGE', 'Request body too large');
    case 'UNAUTHORIZED':
      return new AppError('UNAUTHORIZED', 'Authentication required');
    case 'FORBIDDEN':
      return new AppError('FORBIDDEN', 'Not allowed');
    case 'TOO_MANY_REQUESTS':
      return new AppError('RATE_LIMITED', 'Rate limit exceeded');
    default:
      return unexpectedFailure(error);
  }
}

const TRPC_CODE_BY_STATUS: Record<number, TRPC_ERROR_CODE_KEY> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  402: 'PAYMENT_REQUIRED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_SUPPORTED',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'TOO_MANY_REQUESTS',
  502: 'BAD_GATEWAY',
  503: 'SERVICE_UNAVAILABLE',
  504: 'GATEWAY_TIMEOUT',
};

/** The tRPC code a tRPC client sees for an app error of this HTTP status (data.appCode stays exact). */
export function trpcCodeForStatus(status: number): TRPC_ERROR_CODE_KEY {
  return TRPC_CODE_BY_STATUS[status] ?? 'INTERNAL_SERVER_ERROR';
}
