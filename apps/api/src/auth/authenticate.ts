import {
  AppError,
  type BudgetDecision,
  type RequestPrincipal,
  rateLimitedError,
  rateLimitHeaders,
  type Services,
} from '@verdict/core';
import type { FastifyRequest } from 'fastify';
import { type Caller, presentedKey, SESSION_COOKIE } from './credentials.ts';
import { lookUpKey } from './key-lookup.ts';

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

/**
 * A share link's read: counted against the client IP's budget of public reads, credentials or not (a link is
 * opened signed out); whoever brings credentials is then authenticated and counted as usual (a bad key is a
 * 401 whatever the link requires). Answers whether the reader is signed in.
 */
export async function authenticateSharedRead(
  core: Services,
  req: FastifyRequest,
  headers: Record<string, string>,
  endpoint: string,
): Promise<boolean> {
  const decision = await core.rateLimits.hitPublicIp(req.ip);
  Object.assign(headers, rateLimitHeaders(decision));
  if (!decision.allowed) throw rateLimitedError(decision);
  if (!bringsCredentials(req)) return false;
  await authenticate(core, req, 'user', {}, { endpoint });
  return true;
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
  if (budget === 'streams') return (await openStream(core, req, credentials, headers, endpoint)).caller;
  const { caller, principal } = await identify(core, req, credentials, endpoint);
  count(headers, await core.rateLimits.hitRequest(principal));
  return caller;
}

/**
 * A stream being opened: the caller, counted against its account's stream budget (authenticate with
 * `streams`). `notStreamed` is for an answer that turns out not to stream (a 204 for a finished debate,
 * which EventSource's reconnect after the last event gets): the open is given back and the answer counted
 * as a request instead, whose headers it then carries (and a 429 when that budget is spent).
 */
export async function openStream(
  core: Services,
  req: FastifyRequest,
  credentials: Credentials,
  headers: Record<string, string>,
  endpoint: string,
): Promise<{ caller: Caller; notStreamed: () => Promise<void> }> {
  const { caller, principal } = await identify(core, req, credentials, endpoint);
  const decision = await core.rateLimits.hitStreamOpen(caller.userId);
  count(headers, decision);
  return {
    caller,
    notStreamed: async () => {
      await decision.refund();
      count(headers, await core.rateLimits.hitRequest(principal));
    },
  };
}

/** The decision's headers, and its 429 when it refuses. */
function count(headers: Record<string, string>, decision: BudgetDecision) {
  Object.assign(headers, rateLimitHeaders(decision));
  if (!decision.allowed) throw rateLimitedError(decision);
}

/** The caller behind the credentials, and what its requests count against; 401 for none that hold. */
async function identify(
  core: Services,
  req: FastifyRequest,
  credentials: Credentials,
  endpoint: string,
): Promise<{ caller: Caller; principal: RequestPrincipal }> {
  const raw = presentedKey(req);
  if (raw) {
    const key = await lookUpKey(core, req, raw, endpoint);
    if (!key) throw new AppError('UNAUTHORIZED', 'Invalid or revoked API key');
    return {
      caller: { userId: key.userId, key, sessionToken: null },
      principal: {
        userId: key.userId,
        accountLimit: key.accountLimit,
        keyId: key.keyId,
        keyLimit: key.config?.rateLimit,
      },
    };
  }
  if (credentials === 'key') {
    throw new AppError('UNAUTHORIZED', 'Send an API key as Authorization: Bearer or X-Api-Key');
  }
  const token = req.cookies[SESSION_COOKIE];
  const session = token ? await core.accounts.sessionUser(token) : null;
  if (!session || !token) throw new AppError('UNAUTHORIZED', 'Sign in or send an API key');
  return {
    caller: { userId: session.user.id, key: null, sessionToken: token },
    principal: { userId: session.user.id, accountLimit: session.rateLimit, session: true },
  };
}
