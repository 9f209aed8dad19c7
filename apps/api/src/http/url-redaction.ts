import type { FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Path or query parameters of this route whose values are secrets (a share link's token, an unsubscribe
     * link's signature): its log line and its span show them as [redacted].
     */
    secretParameters?: readonly string[];
  }
}

/** What a secret's value is replaced with. */
export const REDACTED = '[redacted]';

/**
 * Query parameters that are secrets wherever they appear, whether a route declares them or not: the names
 * clients put credentials under by mistake (`?api_key=`, `?access_token=`, `?password=`). Compared lowercased
 * without `-`, `_` and `.`, so `API_KEY`, `api-key` and `apiKey` are one name. No route of this API reads a
 * query parameter of these names but as a secret (url-redaction.test.ts holds the document to that), so
 * redacting them hides nothing an operator needs.
 */
const SECRET_NAMES = new Set([
  'key',
  'apikey',
  'xapikey',
  'auth',
  'authorization',
  'bearer',
  'password',
  'passwd',
  'pwd',
  'passphrase',
  'secret',
  'session',
  'sessionid',
  'cookie',
  'signature',
  'sig',
  'credential',
  'credentials',
  'privatekey',
  'providerkeys',
  'xproviderkeys',
]);

/** ...and any name ending so: `token`, `access_token`, `shareToken`, `client_secret`, `openai_api_key`. */
const SECRET_ENDINGS = ['token', 'secret', 'password', 'apikey'];

/** Whether a query parameter's value is a secret whatever the route, by its name alone. */
export function isSecretQueryName(name: string): boolean {
  const normal = name.toLowerCase().replace(/[-_.]/g, '');
  return SECRET_NAMES.has(normal) || SECRET_ENDINGS.some((ending) => normal.endsWith(ending));
}

/** What a route says of a request's URL: its template ("/api/public/debates/:token") and its secrets. */
export type UrlSecrets = {
  /** Fastify's form of the route's path, `:name` for a parameter; null when no route has the path. */
  template: string | null;
  /** Names of the path and query parameters whose values are secrets. */
  names: readonly string[];
};

const NO_SECRETS: UrlSecrets = { template: null, names: [] };

/**
 * `url` as a log line or a span may show it: the values of the parameters `secrets` names, and of every query
 * parameter isSecretQueryName names, replaced with [redacted]; everything else as it came, so the line still
 * tells the route and its other parameters.
 *
 * @example
 * redactUrl('/api/public/debates/AbC?x=1', { template: '/api/public/debates/:token', names: ['token'] })
 * // '/api/public/debates/[redacted]?x=1'
 * redactUrl('/v1/me?api_key=vk_live_…', { template: '/v1/me', names: [] }) // '/v1/me?api_key=[redacted]'
 */
export function redactUrl(url: string, secrets: UrlSecrets = NO_SECRETS): string {
  const mark = url.indexOf('?');
  if (mark === -1) return redactPath(url, secrets);
  return `${redactPath(url.slice(0, mark), secrets)}?${redactQuery(url.slice(mark + 1), secrets.names)}`;
}

/** The path of `url` (no query string) as a log line or span may show it. */
export const redactedPathOf = (url: string, secrets: UrlSecrets = NO_SECRETS): string =>
  redactPath(url.split('?')[0] ?? '', secrets);

function redactPath(path: string, { template, names }: UrlSecrets): string {
  if (template === null || names.length === 0) return path;
  const pattern = template.split('/');
  const isSecret = (segment: string) => segment.startsWith(':') && names.includes(segment.slice(1));
  if (!pattern.some(isSecret)) return path;
  const segments = path.split('/');
  // The path does not line up with its template (a route matched through a catch-all): the template alone,
  // which holds no value at all, rather than a guess at which segment is the secret.
  if (segments.length !== pattern.length) {
    return pattern.map((segment) => (isSecret(segment) ? REDACTED : segment)).join('/');
  }
  return segments.map((segment, i) => (isSecret(pattern[i] ?? '') ? REDACTED : segment)).join('/');
}

function redactQuery(query: string, declared: readonly string[]): string {
  return query
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq === -1) return pair; // a name alone carries no value
      const rawName = pair.slice(0, eq);
      const name = decodeName(rawName);
      if (!declared.includes(name) && !isSecretQueryName(name)) return pair;
      return `${rawName}=${REDACTED}`;
    })
    .join('&');
}

function decodeName(raw: string): string {
  const spaced = raw.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced;
  }
}

/** Who can say which parameters of any request are secret: the route table (route-table.ts). */
export type SecretsSource = { secretsOf: (request: FastifyRequest) => UrlSecrets };

declare module 'fastify' {
  interface FastifyInstance {
    /** The server's routes' declarations of secret parameters, for its log lines and spans. */
    urlSecrets?: SecretsSource;
  }
}

/**
 * What a request's route declares secret: the server's route table when it has one (it knows catch-alls'
 * and unrouted paths' routes too), else the route's own `config.secretParameters`.
 */
export function secretsOf(request: FastifyRequest): UrlSecrets {
  const source = request.server.urlSecrets;
  if (source) return source.secretsOf(request);
  const { url, config } = request.routeOptions;
  return { template: url ?? null, names: config.secretParameters ?? [] };
}

/** The request's URL, its secrets redacted: what its log line says. */
export const loggedUrl = (request: FastifyRequest): string => redactUrl(request.url, secretsOf(request));

/** The request's path, its secrets redacted, without the query string: what its span says. */
export const tracedPath = (request: FastifyRequest): string =>
  redactedPathOf(request.url, secretsOf(request));
