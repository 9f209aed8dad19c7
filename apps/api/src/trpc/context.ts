import type { KeyPrincipal, Services } from '@verdict/core';
import type { FastifyReply, FastifyRequest } from 'fastify';

export const SESSION_COOKIE = 'verdict_session';

/** Who is calling, once an auth middleware has run. */
export type Caller = {
  userId: string;
  /** Present when the request carried an API key (both families accept one). */
  key: KeyPrincipal | null;
  sessionToken: string | null;
};

export type Context = {
  /** The domain services; procedures never see the database or the bus behind them. */
  services: Services;
  req: FastifyRequest;
  reply: FastifyReply;
  /** REST answers with the procedure's own success status; tRPC always 200 (its client expects it). */
  transport: 'rest' | 'trpc';
  /** Status and headers collected while the procedure runs, applied by responseMeta, errors included. */
  response: { status: number | undefined; headers: Record<string, string> };
};

export function contextFactory(services: Services, transport: Context['transport']) {
  return ({ req, res }: { req: FastifyRequest; res: FastifyReply }): Context => ({
    services,
    req,
    reply: res,
    transport,
    response: { status: undefined, headers: {} },
  });
}

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
