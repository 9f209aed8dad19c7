import type { ErrorCode } from '@verdict/contracts';
import type { Meta } from '../trpc/meta.ts';

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Every failure a route can answer with, and what it means there: what every route of its kind can fail
 * with (from how it authenticates, whether it takes input or a body), then the route's own (meta.errors).
 * A code a route names that its kind already has gets both meanings.
 */
export function routeErrors(
  meta: Pick<Meta, 'auth' | 'errors'>,
  route: { method: string; takesInput: boolean },
): Map<ErrorCode, string> {
  const errors = new Map<ErrorCode, string>();
  const add = (code: ErrorCode, meaning: string) => {
    const known = errors.get(code);
    errors.set(code, known && known !== meaning ? `${known}; ${meaning}` : meaning);
  };
  const method = route.method.toUpperCase();
  const takesBody = BODY_METHODS.has(method);
  if (route.takesInput || takesBody) add('VALIDATION_ERROR', 'Invalid input');
  if (meta.auth === 'user') add('UNAUTHORIZED', 'No valid API key or session cookie');
  if (meta.auth === 'key') add('UNAUTHORIZED', 'No valid API key');
  if (meta.auth === 'optional') add('UNAUTHORIZED', 'An API key or session cookie was sent but is not valid');
  if (takesBody) {
    add('FORBIDDEN', 'Sent from a page of another origin without an API key (CSRF protection)');
    add('PAYLOAD_TOO_LARGE', 'Body larger than the server accepts');
    add('UNSUPPORTED_MEDIA_TYPE', 'A body that is not application/json');
  }
  for (const [code, meaning] of Object.entries(meta.errors ?? {}) as [ErrorCode, string][])
    add(code, meaning);
  if (meta.auth === 'user' || meta.auth === 'key') {
    add('RATE_LIMITED', "Over the account's per-minute request limit, or the key's own");
  }
  if (meta.auth === 'optional') {
    add(
      'RATE_LIMITED',
      "Signed in: over the account's per-minute request limit, or the key's own; anonymous: over the " +
        "client IP's budget of anonymous reads",
    );
  }
  add('INTERNAL_ERROR', 'Unexpected failure; the message carries no internals');
  return errors;
}
