import { errorSchemaName, errorStatus } from '@verdict/contracts';
import type { AuthKind } from '../trpc/meta.ts';
import { type HeaderName, headerRefs } from './components.ts';

export type Response = {
  description: string;
  content?: Record<string, unknown>;
  headers?: Record<string, unknown>;
};

export const SECURITY_SCHEMES = {
  bearerAuth: { type: 'http', scheme: 'bearer', description: 'API key (vrd_…) as a bearer token' },
  apiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-Api-Key', description: 'API key (vrd_…)' },
  sessionCookie: { type: 'apiKey', in: 'cookie', name: 'verdict_session', description: 'Dashboard session' },
} as const;

/** Alternatives, one requirement each: any one of them authenticates. */
export const SECURITY_BY_AUTH: Record<AuthKind, Record<string, string[]>[]> = {
  none: [],
  key: [{ bearerAuth: [] }, { apiKeyHeader: [] }],
  user: [{ bearerAuth: [] }, { apiKeyHeader: [] }, { sessionCookie: [] }],
  // `{}` first: credentials are optional, and a caller who brings them is treated as themselves.
  optional: [{}, { bearerAuth: [] }, { apiKeyHeader: [] }, { sessionCookie: [] }],
};

/** One response per status: what each of its codes means on this route, and each code's envelope. */
export function errorResponses(errors: Map<string, string>, limitHeaders: HeaderName[]) {
  const byStatus = new Map<number, [string, string][]>();
  for (const [code, meaning] of errors) {
    const status = errorStatus(code as never);
    byStatus.set(status, [...(byStatus.get(status) ?? []), [code, meaning]]);
  }
  const responses: Record<string, Response> = {};
  for (const [status, codes] of [...byStatus].sort(([a], [b]) => a - b)) {
    const refs = codes.map(([code]) => ({ $ref: `#/components/schemas/${errorSchemaName(code as never)}` }));
    const headers: HeaderName[] = [];
    if (status < 500) headers.push(...limitHeaders);
    if (status === 429 || status === 503) headers.push('Retry-After');
    responses[String(status)] = {
      description: codes.map(([code, meaning]) => `${code}: ${meaning}`).join('. '),
      headers: headerRefs(headers),
      // anyOf: the codes exclude one another by `error.code`, which a discriminator cannot name (nested).
      content: { 'application/json': { schema: refs.length === 1 ? refs[0] : { anyOf: refs } } },
    };
  }
  return responses;
}
