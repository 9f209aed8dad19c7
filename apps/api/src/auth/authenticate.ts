import { AppError, type Core, rateLimitedError, rateLimitHeaders } from '@verdict/core';
import type { FastifyRequest } from 'fastify';
import { type Caller, presentedKey, SESSION_COOKIE } from '../trpc/context.ts';

export type Credentials = 'user' | 'key';

/**
 * Who is calling, for tRPC procedures and plain routes (SSE) alike. `user` accepts an API key or the
 * session cookie (a presented key wins); `key` requires a key. A key request is counted against its rate
 * limit, and the X-RateLimit-* headers go into `headers` (also when the limit refuses it).
 */
export async function authenticate(
  core: Core,
  req: FastifyRequest,
  credentials: Credentials,
  headers: Record<string, string>,
): Promise<Caller> {
  const raw = presentedKey(req);
  if (raw) return authenticateKey(core, raw, headers);
  if (credentials === 'key') {
    throw new AppError('UNAUTHORIZED', 'Send an API key as Authorization: Bearer or X-Api-Key');
  }
  const token = req.cookies[SESSION_COOKIE];
  const session = token ? await core.accounts.sessionUser(token) : null;
  if (!session || !token) throw new AppError('UNAUTHORIZED', 'Sign in or send an API key');
  return { userId: session.user.id, key: null, sessionToken: token };
}

async function authenticateKey(core: Core, raw: string, headers: Record<string, string>): Promise<Caller> {
  const principal = await core.apiKeys.authenticate(raw);
  if (!principal) throw new AppError('UNAUTHORIZED', 'Invalid or revoked API key');
  const decision = await core.rateLimits.hitKey(
    principal.keyId,
    principal.plan,
    principal.config?.rateLimit ?? null,
  );
  Object.assign(headers, rateLimitHeaders(decision));
  if (!decision.allowed) throw rateLimitedError(decision);
  return { userId: principal.userId, key: principal, sessionToken: null };
}
