import type { ApiClient } from './api-client.ts';

/**
 * Never run: `npm run typecheck` compiles it. Each `@ts-expect-error` states something the generated client
 * must refuse; if the client ever accepts it, the directive is unused and type-checking fails.
 */
export async function undeclaredFieldsFailTypeChecking(client: ApiClient) {
  // @ts-expect-error a path the document does not have
  await client.GET('/v1/profile', {});
  // @ts-expect-error a method the path does not take
  await client.PATCH('/v1/me', {});
  // @ts-expect-error a body field the document does not declare
  await client.POST('/api/keys', { body: { name: 'ci', label: 'ci' } });
  // @ts-expect-error a field of a nested body object the document does not declare
  await client.POST('/api/keys', { body: { name: 'ci', config: { rateLimit: 5, burst: 10 } } });
  // @ts-expect-error a query parameter the document does not declare
  await client.GET('/api/debates', { params: { query: { pageSize: 5 } } });
  // @ts-expect-error a required path parameter left out
  await client.GET('/api/debates/{id}');
  // @ts-expect-error a value outside the documented enum
  await client.POST('/v1/verdicts', { body: { question: 'Ship it?', mode: 'quick' } });

  const me = await client.GET('/v1/me');
  // @ts-expect-error a response field the document does not declare
  void me.data?.credits;
  const created = await client.POST('/api/keys', { body: { name: 'ci' } });
  // @ts-expect-error an error field the envelope of the route's codes does not have
  void created.error?.error.retryAfterMs;
  // What the document declares type-checks.
  void me.data?.plan;
  void created.data?.key;
  void created.error?.error.code;
}
