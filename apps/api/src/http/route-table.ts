import { AppError } from '@verdict/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { OpenApiRouter } from 'trpc-to-openapi';
import { type Meta, routeTemplate } from '../trpc/meta.ts';
import type { UrlSecrets } from './url-redaction.ts';

type Route = { segments: string[]; methods: Set<string>; template: string; secrets: Set<string> };

/** The tRPC adapter's one route: the procedure names are its `path` parameter, the input its query's `input`. */
const TRPC_ROUTE = '/trpc/:path';

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
  const add = (path: string, methods: string[], secrets: readonly string[] = []) => {
    const key = segmentsOf(path).join('/');
    const route = routes.get(key) ?? {
      segments: segmentsOf(path),
      methods: new Set<string>(),
      template: routeTemplate(path),
      secrets: new Set<string>(),
    };
    for (const method of methods) route.methods.add(method.toUpperCase());
    for (const name of secrets) route.secrets.add(name);
    routes.set(key, route);
  };
  /** Each tRPC procedure's secret input fields, by its name ("sharing.publicDebate"). */
  const procedureSecrets = new Map<string, readonly string[]>();
  const procedures = Object.entries(router._def.procedures) as [string, { _def: { meta?: Meta } }][];
  for (const [name, procedure] of procedures) {
    const meta = procedure._def.meta;
    if (meta?.secretParameters?.length) procedureSecrets.set(name, meta.secretParameters);
    if (meta?.openapi) add(meta.openapi.path, [meta.openapi.method], meta.secretParameters);
  }
  app.addHook('onRoute', (route) => {
    // Catch-alls (the REST and tRPC adapters, CORS preflight) say nothing about which paths exist.
    if (route.url.includes('*')) return;
    add(route.url, [route.method].flat(), route.config?.secretParameters);
  });
  const bestRoute = (method: string, url: string): Route | null => {
    const path = (url.split('?')[0] ?? url).split('/');
    let best: { route: Route; rank: number } | null = null;
    for (const route of routes.values()) {
      if (!matches(route.segments, path)) continue;
      const fixed = route.segments.filter((segment) => segment !== '*').length;
      const rank = (route.methods.has(method) ? 1000 : 0) + fixed;
      if (!best || rank > best.rank) best = { route, rank };
    }
    return best?.route ?? null;
  };
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
    templateOf: (method: string, url: string): string | null => bestRoute(method, url)?.template ?? null,
    /**
     * The parameters a request's route declares secret (`secretParameters` of its procedure's meta or of its
     * Fastify route's config), with its template: what its log line and span must not show. A request no
     * route of its own took (a 404 or 405, a CORS preflight through the catch-all) gets the declaration of
     * the route its path names; a tRPC call, its procedures' (their input, in the query's `input`, whole).
     */
    secretsOf: (request: FastifyRequest): UrlSecrets => {
      const own = request.routeOptions.url;
      if (own === TRPC_ROUTE) {
        const path = request.url.split('?')[0] ?? '';
        const names = path
          .slice('/trpc/'.length)
          .split(',')
          .flatMap((name) => procedureSecrets.get(name) ?? []);
        return { template: own, names: names.length > 0 ? [...names, 'input'] : [] };
      }
      if (own !== undefined && !own.includes('*')) {
        return { template: own, names: request.routeOptions.config.secretParameters ?? [] };
      }
      const route = bestRoute(request.method, request.url);
      return route ? { template: route.template, names: [...route.secrets] } : { template: null, names: [] };
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
