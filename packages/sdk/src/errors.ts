import type { components } from './generated/openapi.ts';

/** The envelope's extra fields (limit, upgradeUrl, activeCount…) beside code, message and details. */
export type ErrorExtra = Record<string, unknown>;

/** A plan of the price table, as a refusal names the one that includes what was refused. */
export type Plan = components['schemas']['ByokRequiredError']['error']['requiredPlan'];

/**
 * Every failure of a call: the API's error envelope (`code`, `message`, `details`), the HTTP `status`, and
 * the server's `X-Request-Id` to quote when reporting a problem. A call that got no answer has status 0 and
 * code CONNECTION_ERROR or REQUEST_TIMEOUT.
 */
export class VerdictError extends Error {
  override readonly name: string = 'VerdictError';
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

/**
 * 402 BYOK_REQUIRED: the caller's plan does not include what was asked (the evidence engine, the argument
 * graph, attachments, workspaces, running on your own provider keys). Retrying will not help; choosing
 * `requiredPlan` at `upgradeUrl` will. Still a VerdictError (status 402, code BYOK_REQUIRED).
 *
 * @example
 * try {
 *   const evidence = await client.verdicts.evidence(id);
 * } catch (error) {
 *   if (!(error instanceof PlanRequiredError)) throw error;
 *   console.log(`${error.message}: choose ${error.requiredPlan} at ${error.upgradeUrl}`);
 * }
 */
export class PlanRequiredError extends VerdictError {
  override readonly name: string = 'PlanRequiredError';
  /** The plan that includes the action (the cheapest such plan). */
  readonly requiredPlan: Plan;
  /** Where to choose it. */
  readonly upgradeUrl: string;

  constructor(
    init: ConstructorParameters<typeof VerdictError>[0] & { requiredPlan: Plan; upgradeUrl: string },
  ) {
    super(init);
    this.requiredPlan = init.requiredPlan;
    this.upgradeUrl = init.upgradeUrl;
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
  const init = {
    status: response.status,
    code: typeof code === 'string' ? code : `HTTP_${response.status}`,
    message: typeof message === 'string' ? message : `${response.status} ${response.statusText}`.trim(),
    details: Array.isArray(details) ? details : undefined,
    requestId,
    extra,
    retryAfterMs: retryAfterMs(response.headers),
  };
  const { requiredPlan, upgradeUrl } = extra;
  if (init.code === 'BYOK_REQUIRED' && typeof requiredPlan === 'string' && typeof upgradeUrl === 'string')
    return new PlanRequiredError({ ...init, requiredPlan: requiredPlan as Plan, upgradeUrl });
  return new VerdictError(init);
}
