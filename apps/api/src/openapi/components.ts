import { ERROR_CODES, type ErrorCode, errorEnvelopeOf } from '@verdict/contracts';
import { createSchema } from 'zod-openapi';

type Schema = Record<string, unknown>;

const integerHeader = (description: string) => ({
  description,
  schema: { type: 'integer', format: 'int64', minimum: 0, maximum: 2 ** 53 - 1 },
});

/** Response headers, referenced by name from each response that carries them. */
export const HEADERS = {
  'Access-Control-Allow-Origin': {
    description: 'The request\'s Origin when it is trusted (CORS_ORIGINS); "*" on the health checks',
    schema: { type: 'string', maxLength: 2048 },
  },
  'X-Request-Id': {
    description: "The server's id of this request, as its log line records it",
    schema: { type: 'string', format: 'uuid' },
  },
  'X-RateLimit-Limit': integerHeader('Requests allowed in the current window'),
  'X-RateLimit-Remaining': integerHeader('Requests left in the current window'),
  'X-RateLimit-Reset': integerHeader('Unix time (seconds) at which the window resets'),
  'Retry-After': integerHeader('Seconds to wait before retrying'),
  Allow: { description: 'The methods the path supports', schema: { type: 'string', maxLength: 100 } },
  Deprecation: {
    description: 'Always "true" on a deprecated route',
    schema: { type: 'string', maxLength: 10 },
  },
  Sunset: {
    description: 'HTTP date after which the route may be removed',
    schema: { type: 'string', maxLength: 40 },
  },
  Link: { description: 'Migration guide, rel="deprecation"', schema: { type: 'string', maxLength: 2048 } },
  'Set-Cookie': {
    description:
      'The dashboard session: verdict_session=<token>; HttpOnly; SameSite=Lax; Path=/; Expires (Secure on ' +
      'https). Sign-out sends it expired, which clears it.',
    schema: { type: 'string', maxLength: 512 },
  },
} as const;

export type HeaderName = keyof typeof HEADERS;

/** Headers of a response: the request id and CORS origin every response has, then `names`. */
export const headerRefs = (names: readonly HeaderName[]) =>
  Object.fromEntries(
    [...new Set<HeaderName>(['X-Request-Id', 'Access-Control-Allow-Origin', ...names])].map((name) => [
      name,
      { $ref: `#/components/headers/${name}` },
    ]),
  );

/** The envelope schema of each error code, as components named RateLimitedError, NotFoundError … */
export function errorComponents(): Record<string, Schema> {
  const components: Record<string, Schema> = {};
  for (const code of Object.keys(ERROR_CODES) as ErrorCode[]) {
    Object.assign(components, createSchema(errorEnvelopeOf(code), { io: 'output' }).components);
  }
  return components;
}
