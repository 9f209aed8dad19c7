import type { KeyPrincipal } from '@verdict/core';
import type { FastifyRequest } from 'fastify';

export const SESSION_COOKIE = 'verdict_session';

/** Who is calling, once an auth middleware has run. */
export type Caller = {
  userId: string;
  /** Present when the request carried an API key (both families accept one). */
  key: KeyPrincipal | null;
  sessionToken: string | null;
};

/** The API key a request presents, from `Authorization: Bearer` or `X-Api-Key`; null when none. */
export function presentedKey(req: FastifyRequest): string | null {
  const header = req.headers.authorization;
  if (header) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    return match?.[1] ?? header; // a malformed Authorization header is still an (invalid) credential
  }
  const apiKey = req.headers['x-api-key'];
  return typeof apiKey === 'string' ? apiKey.trim() : null;
}
