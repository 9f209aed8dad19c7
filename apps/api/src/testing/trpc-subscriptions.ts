import {
  createTRPCClient,
  httpBatchLink,
  httpSubscriptionLink,
  splitLink,
  type TRPCLink,
} from '@trpc/client';
import type { AnyTRPCRouter } from '@trpc/server';
import { EventSource } from 'eventsource';
import { SESSION_COOKIE } from '../auth/credentials.ts';
import type { AppRouter } from '../router.ts';

export type ClientCredentials = { key?: string; cookie?: string };

const headersOf = ({ key, cookie }: ClientCredentials): Record<string, string> => ({
  ...(key ? { authorization: `Bearer ${key}` } : {}),
  ...(cookie ? { cookie: `${SESSION_COOKIE}=${cookie}` } : {}),
});

/**
 * A tRPC client of the server at `baseUrl` as a TypeScript app builds one: subscriptions over SSE
 * (httpSubscriptionLink on the `eventsource` package, which sends the credentials as headers through its
 * `fetch`), everything else batched over HTTP. `TRouter` is the app's router or a test's own.
 */
export function subscribingClient<TRouter extends AnyTRPCRouter>(
  baseUrl: string,
  credentials: ClientCredentials,
) {
  const url = `${baseUrl}/trpc`;
  const headers = headersOf(credentials);
  const links: TRPCLink<AppRouter>[] = [
    splitLink({
      condition: (op) => op.type === 'subscription',
      true: httpSubscriptionLink({
        url,
        EventSource,
        eventSourceOptions: {
          fetch: (input, init) => fetch(input, { ...init, headers: { ...init?.headers, ...headers } }),
        },
      }),
      false: httpBatchLink({ url, headers }),
    }),
  ];
  // Every router built by trpc/init.ts has the same root types (no transformer, the project's error shape):
  // links typed for one fit any.
  return createTRPCClient<TRouter>({ links: links as unknown as TRPCLink<TRouter>[] });
}
