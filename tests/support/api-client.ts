import { newUserCredentials } from '@verdict/core/testing';
import type { paths } from '@verdict/sdk';
import createClient, {
  type Client,
  type ClientPathsWithMethod,
  type FetchResponse,
  type MaybeOptionalInit,
} from 'openapi-fetch';
import { expect } from 'vitest';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
type Init<Path extends keyof paths, M extends Method> = MaybeOptionalInit<paths[Path], M>;

/**
 * openapi-fetch's method, with the options typed by the route itself rather than inferred from the call: a
 * body or query field the document does not declare is then an excess property, which fails type-checking
 * (openapi-fetch alone infers the options' type from the call, and so lets any extra field through).
 */
type StrictMethod<M extends Method> = <Path extends ClientPathsWithMethod<Client<paths>, M>>(
  url: Path,
  ...init: undefined extends Init<Path, M> ? [init?: Init<Path, M>] : [init: Init<Path, M>]
) => Promise<FetchResponse<NonNullable<paths[Path][M]>, object, `${string}/${string}`>>;

export type ApiClient = {
  GET: StrictMethod<'get'>;
  POST: StrictMethod<'post'>;
  PUT: StrictMethod<'put'>;
  PATCH: StrictMethod<'patch'>;
  DELETE: StrictMethod<'delete'>;
};

/**
 * A client of the REST API typed by the document the server serves (the SDK's generated types, written by
 * `npm run gen:clients`): a path, parameter, body field or response field the document does not declare
 * fails type-checking. `key` goes as `Authorization: Bearer`; `cookie` is a whole Cookie header value
 * (`verdict_session=…`). Each call answers `{ data, error, response }`: `data` on a 2xx, `error` (the
 * envelope) otherwise, and the raw response for the status and headers.
 */
export function apiClient(baseUrl: string, auth: { key?: string; cookie?: string } = {}): ApiClient {
  const headers: Record<string, string> = {};
  if (auth.key) headers.authorization = `Bearer ${auth.key}`;
  if (auth.cookie) headers.cookie = auth.cookie;
  return createClient<paths>({ baseUrl, headers }) as ApiClient;
}

type Answer<Data> = { data?: Data; error?: unknown; response: Response };

/** Expects `status` and returns the answer's body, typed as the document declares it for the route. */
export function expectBody<Data>(answer: Answer<Data>, status: number): NonNullable<Data> {
  expect(answer.response.status, JSON.stringify(answer.error ?? null)).toBe(status);
  if (answer.data === undefined || answer.data === null) throw new Error(`the ${status} answer has no body`);
  return answer.data;
}

/**
 * Registers a fresh user over the generated client (credentials from newUserCredentials, as the API's
 * in-process harness does) and returns its session cookie (`verdict_session=…`). It cannot be the harness's
 * registerUser: the API here is another process, often on an embedded database no test core can open.
 */
export async function registerUser(baseUrl: string, label: string) {
  const { email, password, name } = newUserCredentials(label);
  const res = await apiClient(baseUrl).POST('/api/auth/register', { body: { email, password, name } });
  if (res.response.status !== 201 || !res.data) {
    throw new Error(`register failed: ${res.response.status} ${JSON.stringify(res.error)}`);
  }
  const cookie = res.response.headers.get('set-cookie')?.split(';')[0] ?? '';
  return { email, password, cookie, userId: res.data.user.id };
}
