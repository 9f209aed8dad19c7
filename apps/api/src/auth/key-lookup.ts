import type { KeyPrincipal, Services } from '@verdict/core';
import type { FastifyRequest } from 'fastify';

/** Requests whose presented key has been looked up: counted then if it was valid, never again. */
const keyLookedUp = new WeakSet<object>();

/**
 * Looks up the API key a request presents; when it is valid, counts the request in the key's usage under
 * `endpoint` (a route template). Counted as soon as the key is known, before the rate limit or the route
 * decides, so refused requests (4xx, 429) count as well. Only an in-memory addition: core's usage writes
 * the counts once a second.
 */
export async function lookUpKey(
  core: Services,
  req: FastifyRequest,
  raw: string,
  endpoint: string,
): Promise<KeyPrincipal | null> {
  keyLookedUp.add(req.raw);
  const principal = await core.apiKeys.authenticate(raw);
  if (principal) core.usage.count(principal.keyId, endpoint);
  return principal;
}

/** Whether the request's key was looked up (and, if valid, counted) while it was answered. */
export const keyWasLookedUp = (req: FastifyRequest): boolean => keyLookedUp.has(req.raw);
