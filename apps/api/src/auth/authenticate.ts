import {
  AppError,
  type LimitDecision,
  rateLimitedError,
  rateLimitHeaders,
  type Services,
} from '@verdict/core';
import type { FastifyRequest } from 'fastify';
import { lookUpKey } from '../http/usage-counting.ts';
import { type Caller, presentedKey, SESSION_COOKIE } from '../trpc/context.ts';

/** Whether the request brings credentials (a key, or a session cookie), valid or not. */
export const bringsCredentials = (req: FastifyRequest) =>
  presentedKey(req) !== null || req.cookies[SESSION_COOKIE] !== undefined;

/**
 * Routes readable without signing in (public collections, votes, polls): a caller who brings credentials
 * is authenticated and counted as usual (bad credentials are a 401, not an anonymous read); one who brings
 * none is counted against the client IP's budget of anonymous reads, and is null.
 */
export async function authenticateIfPresented(
  core: Services,
  req: FastifyRequest,
  headers: Record<string, string>,
  endpoint: string,
): Promise<Caller | null> {
  if (bringsCredentials(req)) return authenticate(core, req, 'user', headers, { endpoint });
  const decision = await core.rateLimits.hitAnonymousRead(req.ip);
  Object.assign(headers, rateLimitHeaders(decision));
  if (!decision.allowed) throw rateLimitedError(decision);
  return null;
}

export type Credentials = 'user' | 'key';

/** What the request is counted against: the account's request budget, or its budget of stream opens. */
export type Budget = 'requests' | 'streams';

export type AuthenticateOptions = {
  /** The route template the request is for (`/v1/verdicts/:id`): where a keyed request is counted. */
  endpoint: string;
  budget?: Budget;
};

/**
 * Who is calling, for tRPC procedures and plain routes (SSE) alike. `user` accepts an API key or the
 * session cookie (a presented key wins); `key` requires a key. Every authenticated request is counted
 * against its account's limit (and its key's, when the key sets a lower one), and the X-RateLimit-* headers
 * go into `headers`, also when the limit refuses it. A valid key's request is counted in its usage under
 * `endpoint` before the limit decides, so refused requests count too.
 */
export async function authenticate(
  core: Services,
  req: FastifyRequest,
  credentials: Credentials,
  headers: Record<string, string>,
  { endpoint, budget = 'requests' }: AuthenticateOptions,
): Promise<Caller> {
  const raw = presentedKey(req);
  let caller: Caller;
  let accountLimit: number;
  if (raw) {
    const principal = await lookUpKey(core, req, raw, endpoint);
    if (!principal) throw new AppError('UNAUTHORIZED', 'Invalid or revoked API key');
    caller = { userId: principal.userId, key: principal, sessionToken: null };
    accountLimit = principal.accountLimit;
  } else {
    if (credentials === 'key') {
      throw new AppError('UNAUTHORIZED', 'Send an API key as Authorization: Bearer or X-Api-Key');
    }
    const token = req.cookies[SESSION_COOKIE];
    const session = token ? await core.accounts.sessionUser(token) : null;
    if (!session || !token) throw new AppError('UNAUTHORIZED', 'Sign in or send an API key');
    caller = { userId: session.user.id, key: null, sessionToken: token };
    accountLimit = session.rateLimit;
  }
  const decision: LimitDecision =
    budget === 'streams'
      ? await core.rateLimits.hitStreamOpen(caller.userId)
      : await core.rateLimits.hitRequest({
          userId: caller.userId,
          accountLimit,
          keyId: caller.key?.keyId,
          keyLimit: caller.key?.config?.rateLimit,
        });
  Object.assign(headers, rateLimitHeaders(decision));
  if (!decision.allowed) throw rateLimitedError(decision);
  return caller;
}
