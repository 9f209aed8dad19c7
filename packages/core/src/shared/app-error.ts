import type { ErrorCode, ValidationIssue } from '@verdict/contracts';

export type AppErrorOptions = {
  details?: ValidationIssue[];
  /** Extra envelope fields some codes carry (limit, upgradeUrl, activeCount …). */
  extra?: Record<string, unknown>;
  /** Response headers that belong to the error (Retry-After …). */
  headers?: Record<string, string>;
  cause?: unknown;
};

/**
 * A failure the caller can act on, named by a stable code from the contracts table. Thrown anywhere in
 * core; translated to the HTTP envelope at the edge only. Anything else that escapes becomes INTERNAL_ERROR.
 */
export class AppError extends Error {
  override name = 'AppError';
  readonly code: ErrorCode;
  readonly details: ValidationIssue[] | undefined;
  readonly extra: Record<string, unknown>;
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, message: string, options: AppErrorOptions = {}) {
    super(message, { cause: options.cause });
    this.code = code;
    this.details = options.details;
    this.extra = options.extra ?? {};
    this.headers = options.headers ?? {};
  }
}

export const notFound = (what: string) => new AppError('NOT_FOUND', `${what} not found`);

/** 503 SERVICE_UNAVAILABLE for work refused because a bounded line is full: try again after `retryAfterSeconds`. */
export const serviceBusy = (message: string, retryAfterSeconds: number, cause?: unknown) =>
  new AppError('SERVICE_UNAVAILABLE', message, {
    headers: { 'Retry-After': String(retryAfterSeconds) },
    ...(cause === undefined ? {} : { cause }),
  });
