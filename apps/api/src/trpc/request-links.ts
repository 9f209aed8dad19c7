import { isIPv6 } from 'node:net';
import type { Config } from '@verdict/core';
import type { FastifyRequest } from 'fastify';

/** The bases of the absolute links in one answer. */
export type RequestLinks = {
  /** Where this API is: streamUrl, the API document's server. */
  api: string;
  /** Where the web app is: shareUrl, upgradeUrl, a share page's og:url. */
  app: string;
  /** A link the domain made on a configured default base, on this answer's base instead; others unchanged. */
  rebase: (url: string) => string;
};

declare module 'fastify' {
  interface FastifyInstance {
    /** The link bases of an answer to `request` (requestLinks with the server's config), for error answers. */
    linksOf?: (request: FastifyRequest) => RequestLinks;
  }
}

type LinkConfig = Pick<Config, 'publicBaseUrl' | 'appUrl' | 'linksFollowRequest'>;

/** One DNS label (letters, digits, hyphens inside; underscores, which container names use). */
const LABEL = '[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?';
/** A name or an IPv4 address, or an IPv6 address in brackets; then an optional port. Nothing else. */
const HOST = new RegExp(`^(?:${LABEL}(?:\\.${LABEL})*|\\[([0-9a-f:.]+)\\])(?::(\\d{1,5}))?$`, 'i');

/**
 * `protocol://host[:port]` of the request when it is plausible, else null. The Host header says it, or, from
 * a proxy TRUST_PROXY trusts, X-Forwarded-Host and X-Forwarded-Proto (Fastify's `request.host` and
 * `request.protocol` read them only then). A host with anything besides a name, an IPv4 or a bracketed IPv6
 * address and a port (a path, user info, spaces, a second value) is refused, not repaired.
 */
export function requestOrigin(request: Pick<FastifyRequest, 'host' | 'protocol'>): string | null {
  const protocol = request.protocol;
  if (protocol !== 'http' && protocol !== 'https') return null;
  const host = request.host;
  if (host.length > 261) return null; // 253 for the name, 8 for ":65535" and brackets to spare
  const match = HOST.exec(host);
  if (!match) return null;
  const [, ipv6, port] = match;
  if (ipv6 !== undefined && !isIPv6(ipv6)) return null;
  if (port !== undefined && (Number(port) < 1 || Number(port) > 65535)) return null;
  let url: URL;
  try {
    url = new URL(`${protocol}://${host}`);
  } catch {
    return null; // what the pattern let through but is no address: 999.1.1.1
  }
  // A name the URL parser reads as another one (3000 as the IPv4 address 0.0.11.184) is no name a client
  // used; an IPv6 address may come back shortened.
  const name = port === undefined ? host : host.slice(0, -(port.length + 1));
  if (ipv6 === undefined && url.hostname !== name.toLowerCase()) return null;
  // Lower case, and the scheme's default port dropped (http://localhost:80 is http://localhost).
  return url.origin;
}

/**
 * The link bases of an answer to `request`. A configured PUBLIC_BASE_URL / APP_URL always wins; while unset
 * (config.linksFollowRequest), links are on the origin the request came to, so a page opened on
 * http://127.0.0.1:3000 gets links it can follow with its own cookie, and on the default
 * (`http://localhost:$PORT`) when that origin is not plausible. Only links in the answer to this request:
 * what is sent later (emails, webhooks) has no request and keeps the configured default, and CORS, CSRF and
 * cookies never look at it.
 */
export function requestLinks(
  request: Pick<FastifyRequest, 'host' | 'protocol'>,
  config: LinkConfig,
): RequestLinks {
  const follow = config.linksFollowRequest;
  const origin = follow.api || follow.app ? requestOrigin(request) : null;
  const api = follow.api && origin !== null ? origin : config.publicBaseUrl;
  const app = follow.app && origin !== null ? origin : config.appUrl;
  // The longer base first: an APP_URL with a path on the API's default address is the app's, not the API's.
  const bases = [
    { configured: config.appUrl, actual: app },
    { configured: config.publicBaseUrl, actual: api },
  ].sort((a, b) => b.configured.length - a.configured.length);
  const rebase = (url: string) => {
    const base = bases.find(({ configured }) => url === configured || url.startsWith(`${configured}/`));
    return base ? base.actual + url.slice(base.configured.length) : url;
  };
  return { api, app, rebase };
}

/** An error's extra fields with its links (upgradeUrl) on the answer's bases. */
export function rebaseExtra(
  extra: Record<string, unknown>,
  links: RequestLinks | undefined,
): Record<string, unknown> {
  if (!links) return extra;
  let rebased: Record<string, unknown> | undefined;
  for (const [name, value] of Object.entries(extra)) {
    if (typeof value !== 'string') continue;
    const moved = links.rebase(value);
    if (moved === value) continue;
    rebased ??= { ...extra };
    rebased[name] = moved;
  }
  return rebased ?? extra;
}
