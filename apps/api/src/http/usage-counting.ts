import { UNMATCHED_ENDPOINT } from '@verdict/contracts';
import type { Services } from '@verdict/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { OpenApiRouter } from 'trpc-to-openapi';
import { presentedKey } from '../auth/credentials.ts';
import { keyWasLookedUp, lookUpKey } from '../auth/key-lookup.ts';
import type { RouteTable } from './route-table.ts';

/** The template of a plain Fastify route serving `req` ("/v1/verdicts/:id/stream"). */
export const routeEndpoint = (req: FastifyRequest): string => req.routeOptions.url ?? UNMATCHED_ENDPOINT;

/**
 * Counts the keyed requests no route authenticated: those refused before a procedure ran (unknown path,
 * 405, a body that does not parse or is too large) and those to routes that take no credentials
 * (/v1/health). Their key is looked up once the answer is sent, off the request's path. Each is counted
 * under its route's template, or UNMATCHED_ENDPOINT for a path no route has: never under a raw path, so
 * made-up paths cannot grow a key's usage rows.
 */
export function registerUsageCounting(
  app: FastifyInstance,
  core: Services,
  routes: RouteTable,
  router: OpenApiRouter,
) {
  const procedures = new Set(Object.keys(router._def.procedures));
  const endpointOf = (request: FastifyRequest): string => {
    const path = request.url.split('?')[0] ?? request.url;
    if (path.startsWith('/trpc/')) {
      const name = path.slice('/trpc/'.length);
      return procedures.has(name) ? `/trpc/${name}` : UNMATCHED_ENDPOINT;
    }
    const url = request.routeOptions.url;
    if (url && !url.includes('*')) return url;
    return routes.templateOf(request.method, path) ?? UNMATCHED_ENDPOINT;
  };

  const lookups = new Set<Promise<void>>();
  const countLater = (request: FastifyRequest, endpoint = endpointOf(request)) => {
    const raw = presentedKey(request);
    if (raw === null) return;
    const lookup: Promise<void> = lookUpKey(core, request, raw, endpoint)
      .then(
        () => {},
        (err: unknown) =>
          request.log.warn({ err }, 'usage: the key of a finished request could not be looked up'),
      )
      .finally(() => lookups.delete(lookup));
    lookups.add(lookup);
  };
  app.addHook('onResponse', (request, _reply, done) => {
    if (!keyWasLookedUp(request)) countLater(request);
    done();
  });
  // A stop waits for the lookups under way, so their counts make the last write (core.close).
  app.addHook('onClose', async () => {
    await Promise.all(lookups);
  });
  return {
    /** Counts a request answered outside Fastify's routes (direct-reads.ts) under `endpoint`, as above. */
    countIfUnlooked: (request: FastifyRequest, endpoint: string) => {
      if (!keyWasLookedUp(request)) countLater(request, endpoint);
    },
  };
}

export type UsageCounting = ReturnType<typeof registerUsageCounting>;
