import { createTRPCClient, httpBatchLink, type TRPCClient } from '@trpc/client';
import type { AppRouter } from './generated/router.ts';

export type VerdictTRPCClientOptions = {
  /** A fetch implementation (default the global one). */
  fetch?: typeof globalThis.fetch;
  /** Headers sent with every call, beside the key. */
  headers?: Record<string, string>;
};

/**
 * A tRPC client of the API's router (/trpc), typed end to end: `trpc.debates.get.query({ id })`. `url` is the
 * API's base URL; the key goes as `Authorization: Bearer`.
 */
export function createVerdictTRPCClient(
  url: string,
  key: string,
  options: VerdictTRPCClientOptions = {},
): TRPCClient<AppRouter> {
  const endpoint = `${url.replace(/\/+$/, '')}/trpc`;
  return createTRPCClient<AppRouter>({
    links: [
      httpBatchLink({
        url: endpoint,
        headers: () => ({ ...options.headers, authorization: `Bearer ${key}` }),
        ...(options.fetch ? { fetch: options.fetch } : {}),
      }),
    ],
  });
}
