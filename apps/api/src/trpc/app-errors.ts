import type { TRPCError } from '@trpc/server';
import type { ValidationIssue } from '@verdict/contracts';
import { AppError } from '@verdict/core';

type ZodLikeIssue = { path: PropertyKey[]; message: string; code: string };

function isZodError(err: unknown): err is Error & { issues: ZodLikeIssue[] } {
  return err instanceof Error && Array.isArray((err as { issues?: unknown }).issues);
}

export function zodIssuesToDetails(issues: ZodLikeIssue[]): ValidationIssue[] {
  return issues.map((issue) => ({
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
      return new AppError('INTERNAL_ERROR', 'Internal server error', { cause: error });
  }
}
