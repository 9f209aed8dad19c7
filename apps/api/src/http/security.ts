import fastifyCors, { type FastifyCorsOptions } from '@fastify/cors';
import { AppError, type Config } from '@verdict/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { presentedKey } from '../auth/credentials.ts';
import { sendAppError } from './envelope.ts';
import { type ContentSecurityPolicy, registerSecurityHeaders } from './security-headers.ts';
import { SSO_ANSWER_PATH } from './sso-routes.ts';

/**
 * The API answers JSON only: a page that somehow renders a response may load nothing, run nothing and be
 * framed by nobody. /docs gets its own policy (docsContentSecurityPolicy).
 */
const API_CSP: ContentSecurityPolicy = {
  useDefaults: false,
  directives: {
    defaultSrc: ["'none'"],
    frameAncestors: ["'none'"],
    baseUri: ["'none'"],
    formAction: ["'none'"],
  },
};

/**
 * What Redoc needs and nothing more: its bundle from this server, the inline styles it injects, the
 * document from /openapi.json, the search worker it starts from a blob, images and fonts inlined as data.
 * (Checked in headless Chromium: the page renders with one refusal, the footer logo Redoc loads from its
 * CDN, which hides itself when refused — the docs load nothing from elsewhere.)
 */
export const docsContentSecurityPolicy: ContentSecurityPolicy = {
  useDefaults: false,
  directives: {
    defaultSrc: ["'none'"],
    scriptSrc: ["'self'"],
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", 'data:', 'blob:'],
    fontSrc: ["'self'", 'data:'],
    connectSrc: ["'self'"],
    workerSrc: ["'self'", 'blob:'],
    frameAncestors: ["'none'"],
    baseUri: ["'none'"],
    formAction: ["'none'"],
  },
};

/** Paths anyone may read from any page (no credentials): health checks, and the spec's public reads. */
const PUBLIC_READS = [/^\/health$/, /^\/v1\/health$/, /^\/api\/public\/debates\/[^/]+$/];

const EXPOSED_HEADERS = [
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'Retry-After',
  'X-Request-Id',
  'Deprecation',
  'Sunset',
  'Link',
];
const ALLOWED_HEADERS = [
  'Content-Type',
  'Authorization',
  'X-Api-Key',
  'Idempotency-Key',
  'X-Provider-Keys',
  'Last-Event-ID',
];

const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

const pathOf = (url: string) => url.split('?')[0] ?? url;

/**
 * True for a browser request that another site made. A page on a trusted origin (or this server's own) is
 * fine; so is a non-browser client, which sends neither Origin nor Sec-Fetch-Site.
 */
export function isCrossSite(req: FastifyRequest, trusted: ReadonlySet<string>): boolean {
  if (req.headers['sec-fetch-site'] === 'same-origin') return false;
  const origin = req.headers.origin;
  if (typeof origin === 'string') return !trusted.has(origin);
  return req.headers['sec-fetch-site'] === 'cross-site';
}

/** The origins a browser page may act from: CORS_ORIGINS, the web app's and this API's own. */
export function trustedOrigins(config: Config): Set<string> {
  return new Set([
    ...config.corsOrigins,
    new URL(config.appUrl).origin,
    new URL(config.publicBaseUrl).origin,
  ]);
}

/** Security headers on every response, CORS by origin, and the CSRF guard for cookie-authenticated writes. */
export async function registerSecurity(app: FastifyInstance, config: Config) {
  const trusted = trustedOrigins(config);
  const apiHeaders = registerSecurityHeaders(app, {
    contentSecurityPolicy: API_CSP,
    // An API response is not a document another site should embed or open in its window group.
    crossOriginResourcePolicy: { policy: 'same-site' },
    hsts: config.publicBaseUrl.startsWith('https://'),
  });

  await app.register(fastifyCors, {
    delegator: (req, done) => done(null, corsPolicy(req, trusted)),
  });

  // Keys are not ambient: a browser never attaches one on its own, so only requests without a key (the
  // session cookie's, or sign-in itself) can be forged by another site. Refused before any work. A SAML
  // provider's answer comes from its own site by design; it is bound to the browser that started the sign-in
  // (sso-routes.ts) and uses no session.
  app.addHook('onRequest', (req, reply, done) => {
    if (
      !UNSAFE_METHODS.has(req.method) ||
      presentedKey(req) !== null ||
      !isCrossSite(req, trusted) ||
      SSO_ANSWER_PATH.test(req.url)
    ) {
      return done();
    }
    sendAppError(
      reply,
      new AppError('FORBIDDEN', 'Cross-site request refused: this origin may not act with your session'),
    );
  });
  return { apiHeaders };
}

/**
 * The CORS headers @fastify/cors gives, under the policies below, a request to `path` that sends no Origin
 * (a server's, a CLI's, a load balancer's): Vary always, the public reads' grant as well. The direct reads
 * (direct-reads.ts) answer with these; tests/direct-reads.test.ts holds them to what the plugin sends.
 */
export function corsHeadersWithoutOrigin(path: string): [name: string, value: string][] {
  const headers: [string, string][] = [['vary', 'Origin']];
  if (!PUBLIC_READS.some((pattern) => pattern.test(path))) return headers;
  headers.push(['access-control-allow-origin', '*']);
  headers.push(['access-control-expose-headers', PUBLIC_READ_POLICY.exposedHeaders.join(', ')]);
  return headers;
}

const PUBLIC_READ_POLICY = {
  origin: '*',
  methods: ['GET', 'OPTIONS'],
  allowedHeaders: ['Content-Type'],
  // A page embedding a shared debate can see when to try again.
  exposedHeaders: ['Retry-After', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'],
  credentials: false,
  // The spec answers OPTIONS with 204 whether or not it is a well-formed preflight.
  strictPreflight: false,
} satisfies FastifyCorsOptions;

/** The policies of the other routes, by whether they take the session cookie and the origin they allow. */
const policies = new Map<string, FastifyCorsOptions>();

function corsPolicy(req: FastifyRequest, trusted: ReadonlySet<string>): FastifyCorsOptions {
  const path = pathOf(req.url);
  if (PUBLIC_READS.some((pattern) => pattern.test(path))) return PUBLIC_READ_POLICY;
  const header = req.headers.origin;
  const origin = typeof header === 'string' && trusted.has(header) ? header : false;
  // The session cookie serves the dashboard's routes only; /v1 is for API keys.
  const credentials = path.startsWith('/api/') || path.startsWith('/trpc/');
  // A few trusted origins, two kinds of route: made once each rather than per request.
  const key = `${credentials}|${origin || ''}`;
  let policy = policies.get(key);
  if (!policy) {
    policy = {
      origin,
      credentials,
      methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
      allowedHeaders: ALLOWED_HEADERS,
      exposedHeaders: EXPOSED_HEADERS,
      maxAge: 600,
    };
    policies.set(key, policy);
  }
  return policy;
}
