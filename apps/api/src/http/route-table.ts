import { AppError } from '@verdict/core';
import type { FastifyInstance } from 'fastify';
import type { OpenApiRouter } from 'trpc-to-openapi';
import { type Meta, routeTemplate } from '../trpc/meta.ts';

type Route = { segments: string[]; methods: Set<string>; template: string };

const PARAMETER = /^(\{\w+\}|:\w+)$/;

/** "/api/debates/{id}" and "/api/debates/:id" alike: a parameter segment matches any one segment. */
const segmentsOf = (path: string) => path.split('/').map((s) => (PARAMETER.test(s) ? '*' : s));

const matches = (pattern: string[], path: string[]) =>
  pattern.length === path.length && pattern.every((segment, i) => segment === '*' || segment === path[i]);

/**
 * Every path the server answers and with which methods: the REST procedures (from the router) and the
 * plain routes (collected as they are registered). Lets a known path with an unsupported method answer
 * 405 with Allow, and an unknown path 404, without running the REST adapter.
 */
export function createRouteTable(app: FastifyInstance, router: OpenApiRouter) {
  const routes = new Map<string, Route>();
  const add = (path: string, methods: string[]) => {
    const key = segmentsOf(path).join('/');
    const route = routes.get(key) ?? {
      segments: segmentsOf(path),
      methods: new Set<string>(),
      template: routeTemplate(path),
    };
    for (const method of methods) route.methods.add(method.toUpperCase());
    routes.set(key, route);
  };
  for (const procedure of Object.values(router._def.procedures) as { _def: { meta?: Meta } }[]) {
    const openapi = procedure._def.meta?.openapi;
    if (openapi) add(openapi.path, [openapi.method]);
  }
  app.addHook('onRoute', (route) => {
    // Catch-alls (the REST and tRPC adapters, CORS preflight) say nothing about which paths exist.
    if (route.url.includes('*')) return;
    add(route.url, [route.method].flat());
  });
  return {
    /** The methods a path accepts, or null when no route has that path. */
    allowedMethods: (url: string): string[] | null => {
      const path = (url.split('?')[0] ?? url).split('/');
      const methods = new Set<string>();
      for (const route of routes.values()) {
        if (matches(route.segments, path)) for (const method of route.methods) methods.add(method);
      }
      return methods.size > 0 ? [...methods].sort() : null;
    },
    /**
     * The template of the route a request is for ("/v1/verdicts/:id"), or null when no route has its path.
     * A route that takes the method wins, then the one with more fixed segments (/api/debates/fetch-url
     * over /api/debates/:id).
     */
    templateOf: (method: string, url: string): string | null => {
      const path = (url.split('?')[0] ?? url).split('/');
      let best: { route: Route; rank: number } | null = null;
      for (const route of routes.values()) {
        if (!matches(route.segments, path)) continue;
        const fixed = route.segments.filter((segment) => segment !== '*').length;
        const rank = (route.methods.has(method) ? 1000 : 0) + fixed;
        if (!best || rank > best.rank) best = { route, rank };
      }
      return best?.route.template ?? null;
    },
  };
}

export type RouteTable = ReturnType<typeof createRouteTable>;

/**
 * Why no route serves the request: 405 with Allow when the path exists with other methods, 404 when it does
 * not exist; null when a route takes this method on this path.
 */
export function unroutable(routes: RouteTable, request: { method: string; url: string }): AppError | null {
  const allowed = routes.allowedMethods(request.url);
  if (allowed?.includes(request.method)) return null;
  if (allowed === null) return notFound(request);
  return new AppError(
    'METHOD_NOT_ALLOWED',
    `${request.method} is not supported on ${shownPath(request.url)}`,
    {
      headers: { Allow: allowed.join(', ') },
    },
  );
}

/** Paths echoed in a message are cut short: a path of any length must not make a message of any length. */
const SHOWN_PATH_MAX = 200;
const shownPath = (url: string) => {
  const path = url.split('?')[0] ?? '';
  return path.length > SHOWN_PATH_MAX ? `${path.slice(0, SHOWN_PATH_MAX)}…` : path;
};

export const notFound = (request: { method: string; url: string }) =>
  new AppError('NOT_FOUND', `No route for ${request.method} ${shownPath(request.url)}`);
