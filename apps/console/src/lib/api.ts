import { type components, Verdict, VerdictError } from '@verdict/sdk';

export type Schemas = components['schemas'];

/**
 * The console's one client: the official SDK against this origin. No key: the browser's session cookie
 * authenticates (same-origin fetches carry it), and the API's CSRF guard accepts same-origin writes.
 * Retries stay off so that a failed click shows its error at once instead of after back-off.
 */
export const client = new Verdict({ baseUrl: window.location.origin, maxRetries: 0, timeoutMs: 30_000 });
export const rest = client.rest;

/** The message to show for a failed call: the API's own where it sent one. */
export function messageOf(error: unknown): string {
  if (error instanceof VerdictError) return error.message;
  if (error instanceof Error) return error.message;
  return 'Something went wrong';
}

export const isUnauthorized = (error: unknown) => error instanceof VerdictError && error.status === 401;
export const isNotFound = (error: unknown) => error instanceof VerdictError && error.status === 404;

/** The data of an openapi-fetch call (the SDK's transport throws a VerdictError for every error answer). */
export async function data<D>(call: Promise<{ data?: D }>): Promise<D> {
  const { data } = await call;
  return data as D;
}
