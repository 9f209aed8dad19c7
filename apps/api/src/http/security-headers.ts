import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';
import { HeaderBlock, setHeaderBlock } from './header-block.ts';

export type ContentSecurityPolicy = Exclude<NonNullable<HelmetOptions['contentSecurityPolicy']>, boolean>;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** This route's own Content-Security-Policy (a page's), instead of the API's. */
    contentSecurityPolicy?: ContentSecurityPolicy;
  }
}

/**
 * The headers helmet sets for `options`, worked out once. Helmet is a middleware that parses its options
 * and builds every header on each call; called per request that was a twentieth of a health check's CPU.
 */
export function helmetHeaders(options: HelmetOptions): HeaderBlock {
  const headers = new Map<string, string>();
  const response = {
    setHeader: (name: string, value: unknown) => headers.set(name, String(value)),
    removeHeader: (name: string) => headers.delete(name),
  };
  helmet(options)({} as IncomingMessage, response as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
  });
  return new HeaderBlock(headers);
}

/**
 * Helmet's headers on every response (set on the raw response, so streams written by hand carry them too),
 * with the route's own Content-Security-Policy where its config names one.
 */
export function registerSecurityHeaders(app: FastifyInstance, base: HelmetOptions) {
  const apiHeaders = helmetHeaders(base);
  const byPolicy = new Map<ContentSecurityPolicy, HeaderBlock>();
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
    setHeaderBlock(reply.raw, policy ? headersOf(policy) : apiHeaders);
    done();
  });
}
