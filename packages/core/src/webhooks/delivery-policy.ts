/**
 * When a delivery is tried again after a failed attempt: 5 s, 30 s, then 5 min after it (the spec's three
 * retries), and after the fourth attempt never: it is permanently failed. Pure, so tests name the instants.
 */
export const RETRY_DELAYS_MS = [5_000, 30_000, 300_000] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

/** Each attempt's limit, connection and answer included. */
export const DELIVERY_TIMEOUT_MS = 10_000;
/** How much of an answer is kept for the history. */
export const RESPONSE_EXCERPT_BYTES = 1024;

/** What one attempt came to. */
export type AttemptResult = {
  startedAt: Date;
  durationMs: number;
  /** The answer's status; null when none came (timeout, refused address, connection error). */
  statusCode: number | null;
  responseExcerpt: string | null;
  error: string | null;
};

/** What follows an attempt: done, another attempt at `dueAt`, or given up (and whether the webhook is gone). */
export type NextStep =
  | { status: 'succeeded' }
  | { status: 'pending'; dueAt: Date }
  | { status: 'failed'; deactivateWebhook: boolean };

/** The step after attempt number `attempt` (1-based) ended with `result` at `now`. */
export function nextStep(attempt: number, result: Pick<AttemptResult, 'statusCode'>, now: number): NextStep {
  const code = result.statusCode;
  if (code !== null && code >= 200 && code < 300) return { status: 'succeeded' };
  // 410 Gone: the receiver says the endpoint is gone for good; retrying would only repeat that.
  if (code === 410) return { status: 'failed', deactivateWebhook: true };
  const delay = RETRY_DELAYS_MS[attempt - 1];
  if (delay === undefined) return { status: 'failed', deactivateWebhook: false };
  return { status: 'pending', dueAt: new Date(now + delay) };
}
