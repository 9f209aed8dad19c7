import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

export type ContentSecurityPolicy = Exclude<NonNullable<HelmetOptions['contentSecurityPolicy']>, boolean>;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** This route's own Content-Security-Policy (a page's), instead of the API's. */
    contentSecurityPolicy?: ContentSecurityPolicy;
  }
}

type Headers = readonly (readonly [string, string])[];

/**
 * The headers helmet sets for `options`, worked out once. Helmet is a middleware that parses its options
 * and builds every header on each call; called per request that was a twentieth of a health check's CPU.
 */
export function helmetHeaders(options: HelmetOptions): Headers {
  const headers = new Map<string, string>();
  const response = {
    setHeader: (name: string, value: unknown) => headers.set(name, String(value)),
    removeHeader: (name: string) => headers.delete(name),
  };
  helmet(options)({} as IncomingMessage, response as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
  });
  return [...headers];
}

/**
 * Helmet's headers on every response (set on the raw response, so streams written by hand carry them too),
 * with the route's own Content-Security-Policy where its config names one.
 */
export function registerSecurityHeaders(app: FastifyInstance, base: HelmetOptions) {
  const apiHeaders = helmetHeaders(base);
  const byPolicy = new Map<ContentSecurityPolicy, Headers>();
  const headersOf = (policy: ContentSecurityPolicy) => {
    let headers = byPolicy.get(policy);
    if (!headers) {
      headers = helmetHeaders({ ...base, contentSecurityPolicy: policy });
      byPolicy.set(policy, headers);
    }
    return headers;
  };
  app.addHook('onRequest', (request, reply, done) => {
    const policy = request.routeOptions.config.contentSecurityPolicy;
    for (const [name, value] of policy ? headersOf(policy) : apiHeaders) reply.raw.setHeader(name, value);
    done();
  });
}
