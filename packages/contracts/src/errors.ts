import { z } from 'zod';
import { ReadinessChecks } from './health.ts';
import { Plan } from './plans.ts';

/**
 * The one table of stable error codes. Each code has exactly one HTTP status; the message a client sees may
 * change between releases, the code never does.
 *
 * @example
 * errorStatus('NOT_FOUND') // 404
 */
export const ERROR_CODES = {
  /** Body, query or path failed validation; `details` lists the issues. Also malformed JSON. */
  VALIDATION_ERROR: { status: 400, doc: 'Body or query fails validation' },
  /** /api/similar without q. */
  MISSING_QUERY: { status: 400, doc: 'Required query parameter q is missing' },
  /** Billing portal requested before any purchase. */
  NO_PAYMENT_CUSTOMER: { status: 400, doc: 'No prior purchase, so no billing portal' },
  /** Missing, malformed, revoked or unknown credentials. */
  UNAUTHORIZED: { status: 401, doc: 'Missing, malformed or invalid credentials' },
  /** A route that needs an API key was called with a session only. */
  API_KEY_REQUIRED: { status: 401, doc: 'This route needs an API key' },
  /** /v1 create without enough credits. */
  INSUFFICIENT_CREDITS: { status: 402, doc: 'Not enough credits for the mode' },
  /** Action reserved to BYOK plans. */
  BYOK_REQUIRED: { status: 402, doc: 'Action needs a BYOK plan' },
  /** A workspace invite when every seat of the owner's plan is taken. */
  SEAT_LIMIT_REACHED: { status: 402, doc: "Every seat of the workspace owner's plan is taken" },
  /** Authenticated but not allowed: another account's resource, role lacks rights. */
  FORBIDDEN: { status: 403, doc: 'Not allowed for this caller' },
  /** Resource missing, revoked, or owned by another user; also unknown routes. */
  NOT_FOUND: { status: 404, doc: 'Resource or route not found' },
  /** The authenticated user record is gone. */
  USER_NOT_FOUND: { status: 404, doc: 'Authenticated user record missing' },
  /** The route exists but not for this HTTP method. */
  METHOD_NOT_ALLOWED: { status: 405, doc: 'HTTP method not supported on this route' },
  /** Uniqueness clash: email registered, slug taken, already a member. */
  CONFLICT: { status: 409, doc: 'Conflicts with an existing resource' },
  DEBATE_NOT_RUNNING: { status: 409, doc: 'Command sent while no engine runs the debate' },
  DEBATE_NOT_FAILED: { status: 409, doc: 'Retry of a debate that has not failed' },
  DEBATE_ALREADY_RUNNING: { status: 409, doc: 'Retry while an engine runs the debate' },
  POLL_CLOSED: { status: 409, doc: 'Vote on a closed poll' },
  /** The request (headers and body) did not arrive within the server's request timeout. */
  REQUEST_TIMEOUT: { status: 408, doc: 'Request not received in time' },
  /** Request body larger than the server accepts. */
  PAYLOAD_TOO_LARGE: { status: 413, doc: 'Request body too large' },
  /** A body was sent with a content type other than application/json. */
  UNSUPPORTED_MEDIA_TYPE: { status: 415, doc: 'Content-Type must be application/json' },
  MONTHLY_LIMIT_REACHED: { status: 429, doc: 'Free-plan monthly debate limit reached' },
  CONCURRENT_LIMIT: { status: 429, doc: 'Too many simultaneous debates' },
  QUOTA_EXCEEDED: { status: 429, doc: 'Insufficient credits (create, fork on /api)' },
  /** Per-key, per-IP or login-attempt limit exceeded; see Retry-After and X-RateLimit-Reset. */
  RATE_LIMITED: { status: 429, doc: 'Rate limit exceeded' },
  /** The request's headers are larger than the server accepts. */
  REQUEST_HEADER_FIELDS_TOO_LARGE: { status: 431, doc: 'Request headers too large' },
  /** Unexpected failure; the message never carries internals. */
  INTERNAL_ERROR: { status: 500, doc: 'Unexpected failure' },
  STREAKS_ERROR: { status: 500, doc: 'Streak computation failure' },
  SIMILAR_SEARCH_FAILED: { status: 500, doc: 'Similarity search failure' },
  RECOMMENDATIONS_FAILED: { status: 500, doc: 'Recommendation failure' },
  PROVIDER_ERROR: { status: 502, doc: 'AI provider error' },
  /** The database (or another dependency) does not answer. */
  SERVICE_UNAVAILABLE: { status: 503, doc: 'A dependency of the service is unavailable' },
  BILLING_NOT_CONFIGURED: { status: 503, doc: 'Pricing not configured on the server' },
  PROVIDER_TIMEOUT: { status: 504, doc: 'AI provider timed out' },
} as const satisfies Record<string, { status: number; doc: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;
export const ErrorCode = z.enum(Object.keys(ERROR_CODES) as [ErrorCode, ...ErrorCode[]]);

/** HTTP status of a code, from the one table. */
export function errorStatus(code: ErrorCode): number {
  return ERROR_CODES[code].status;
}

/** One validation problem: where (`path`, dotted) and what. */
export const ValidationIssue = z.object({
  path: z.string().meta({ description: 'Dotted path of the offending field; empty for the whole body' }),
  message: z.string(),
  code: z.string().meta({ description: 'Machine-readable issue kind, e.g. too_small, invalid_type' }),
});
export type ValidationIssue = z.infer<typeof ValidationIssue>;

/**
 * The error envelope every route answers with. Some codes add fields next to `code` and `message`
 * (`limit`, `upgradeUrl`, `activeCount`, `retryAfter`, `budget`).
 *
 * @example
 * { "error": { "code": "NOT_FOUND", "message": "API key not found" } }
 */
export const ErrorEnvelope = z
  .object({
    error: z
      .object({
        code: ErrorCode,
        message: z.string(),
        details: z.array(ValidationIssue).optional(),
      })
      .catchall(z.unknown()),
  })
  .meta({ id: 'ErrorEnvelope' });
export type ErrorEnvelope = z.infer<typeof ErrorEnvelope>;

const count = (description: string) => z.number().int().min(0).max(2_147_483_647).meta({ description });

/**
 * Which budget a 429 RATE_LIMITED spent: the account's (or key's) requests per minute, its stream opens per
 * minute, failed sign-ins per email or client address, sign-ups per address per hour, reads of shared debates
 * or anonymous reads of public resources per address per minute.
 */
export const RateBudget = z
  .enum(['requests', 'streamOpens', 'signIns', 'signUps', 'publicReads', 'anonymousReads'])
  .meta({ description: 'The budget that was spent' });
export type RateBudget = z.infer<typeof RateBudget>;

/**
 * Fields some codes add next to `code` and `message`. A client may rely on them for those codes only.
 *
 * @example
 * // 429 MONTHLY_LIMIT_REACHED
 * { "error": { "code": "MONTHLY_LIMIT_REACHED", "message": "…", "limit": 5, "upgradeUrl": "https://…/pricing" } }
 */
export const ERROR_EXTRAS = {
  VALIDATION_ERROR: { details: z.array(ValidationIssue).max(100).optional() },
  RATE_LIMITED: {
    retryAfter: count('Seconds to wait before retrying (also in Retry-After)'),
    budget: RateBudget,
    limit: count('What the spent budget allows in its window (the message says per what)'),
  },
  MONTHLY_LIMIT_REACHED: {
    limit: count('Free-tier debates per month'),
    upgradeUrl: z.string().max(2048).meta({ description: 'Where to choose a paid plan' }),
  },
  BYOK_REQUIRED: {
    requiredPlan: Plan.meta({ description: 'The plan that includes the action' }),
    upgradeUrl: z.string().max(2048).meta({ description: 'Where to choose a paid plan' }),
  },
  SEAT_LIMIT_REACHED: {
    seats: count("Seats of the workspace owner's plan, the owner included"),
    memberCount: count('People in the workspace now'),
    upgradeUrl: z.string().max(2048).meta({ description: 'Where to choose a plan with more seats' }),
  },
  CONCURRENT_LIMIT: {
    activeCount: count('Debates of the account now pending, running or paused'),
    limit: count('Debates the account may have running at once'),
  },
  QUOTA_EXCEEDED: {
    required: count('Credits the debate costs'),
    balance: count('Credits the account has'),
  },
  INSUFFICIENT_CREDITS: {
    required: count('Credits the debate costs'),
    balance: count('Credits the account has'),
  },
  SERVICE_UNAVAILABLE: {
    checks: ReadinessChecks.optional().meta({ description: 'GET /ready only: what each check found' }),
  },
} as const satisfies Partial<Record<ErrorCode, z.ZodRawShape>>;

/** "RATE_LIMITED" → "RateLimitedError", "INTERNAL_ERROR" → "InternalError": the component name of a code. */
export const errorSchemaName = (code: ErrorCode) => {
  const pascal = code
    .toLowerCase()
    .split('_')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('');
  return pascal.endsWith('Error') ? pascal : `${pascal}Error`;
};

/**
 * The envelope of one code exactly: the code itself, its message and the fields that code adds. The API
 * document describes each route's errors with these, so a generated client knows which fields it gets.
 */
export function errorEnvelopeOf(code: ErrorCode) {
  const extras: z.ZodRawShape = (ERROR_EXTRAS as Partial<Record<ErrorCode, z.ZodRawShape>>)[code] ?? {};
  return z
    .object({
      error: z.object({
        code: z.literal(code),
        message: z.string().max(2000).meta({ description: 'For people; may change between releases' }),
        ...extras,
      }),
    })
    .meta({ id: errorSchemaName(code), description: ERROR_CODES[code].doc });
}
