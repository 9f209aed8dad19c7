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
 * Helmet's headers that only mean something on a document a browser renders: its window group and agent
 * cluster, DNS prefetching from its links, old Internet Explorer's download prompt and XSS filter, Flash's
 * and Acrobat's cross-domain policy files. An API answer (JSON, a stream, an export) is never one — OWASP's
 * REST Security Cheat Sheet lists what it needs: the CSP, nosniff, framing, and HSTS over TLS — so it goes
 * without them, six lines fewer for every client to read; pages (the console, the docs) keep them all.
 */
const DOCUMENT_ONLY = new Set([
  'cross-origin-opener-policy',
  'origin-agent-cluster',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
]);

/**
 * Helmet's headers on every response (set on the raw response, so streams written by hand carry them too):
 * an API answer's, or, on a page whose route config names its own Content-Security-Policy, the whole set
 * with that policy. Returns the API answers' block.
 */
export function registerSecurityHeaders(app: FastifyInstance, base: HelmetOptions): HeaderBlock {
  const apiHeaders = new HeaderBlock(
    helmetHeaders(base).entries.filter(([name]) => !DOCUMENT_ONLY.has(name.toLowerCase())),
  );
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
  return apiHeaders;
}
