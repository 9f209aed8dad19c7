/** The envelope's extra fields (limit, upgradeUrl, activeCount…) beside code, message and details. */
export type ErrorExtra = Record<string, unknown>;

/**
 * Every failure of a call: the API's error envelope (`code`, `message`, `details`), the HTTP `status`, and
 * the server's `X-Request-Id` to quote when reporting a problem. A call that got no answer has status 0 and
 * code CONNECTION_ERROR or REQUEST_TIMEOUT.
 */
export class VerdictError extends Error {
  override readonly name = 'VerdictError';
  readonly status: number;
  readonly code: string;
  readonly details: unknown[] | undefined;
  readonly requestId: string | null;
  readonly extra: ErrorExtra;
  /** How long the server asked to wait before trying again (Retry-After), in milliseconds. */
  readonly retryAfterMs: number | null;

  constructor(init: {
    status: number;
    code: string;
    message: string;
    details?: unknown[] | undefined;
    requestId?: string | null;
    extra?: ErrorExtra;
    retryAfterMs?: number | null;
    cause?: unknown;
  }) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.status = init.status;
    this.code = init.code;
    this.details = init.details;
    this.requestId = init.requestId ?? null;
    this.extra = init.extra ?? {};
    this.retryAfterMs = init.retryAfterMs ?? null;
  }
}

/** Retry-After as milliseconds: delay-seconds or an HTTP date; null when absent or unreadable. */
export function retryAfterMs(headers: Headers, now = Date.now()): number | null {
  const value = headers.get('retry-after');
  if (value === null || value.trim() === '') return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

/** The VerdictError an error answer stands for, from its envelope when it has one. */
export async function errorFromResponse(response: Response): Promise<VerdictError> {
  const requestId = response.headers.get('x-request-id');
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    body = undefined;
  }
  const envelope =
    body && typeof body === 'object' && 'error' in body && body.error && typeof body.error === 'object'
      ? (body.error as Record<string, unknown>)
      : undefined;
  const { code, message, details, ...extra } = envelope ?? {};
  return new VerdictError({
    status: response.status,
    code: typeof code === 'string' ? code : `HTTP_${response.status}`,
    message: typeof message === 'string' ? message : `${response.status} ${response.statusText}`.trim(),
    details: Array.isArray(details) ? details : undefined,
    requestId,
    extra,
    retryAfterMs: retryAfterMs(response.headers),
  });
}
