import type { KeyPrincipal, Services } from '@verdict/core';
import type { FastifyRequest } from 'fastify';

/**
 * Marks a request whose presented key has been looked up: counted then if it was valid, never again. A
 * property of the raw request rather than a WeakSet entry, which cost more than the lookup it records.
 */
const KEY_LOOKED_UP = Symbol('keyLookedUp');
type Marked = { [KEY_LOOKED_UP]?: true };

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
  (req.raw as Marked)[KEY_LOOKED_UP] = true;
  const principal = await core.apiKeys.authenticate(raw);
  if (principal) core.usage.count(principal.keyId, endpoint);
  return principal;
}

/** Whether the request's key was looked up (and, if valid, counted) while it was answered. */
export const keyWasLookedUp = (req: FastifyRequest): boolean => (req.raw as Marked)[KEY_LOOKED_UP] === true;
