import type * as Oidc from 'openid-client';
import type { Config } from '../config/config.ts';
import { ssrfGuardedAgent } from '../net/ssrf-guard.ts';

/**
 * openid-client (with oauth4webapi and jose), loaded at the first sign-in or set-up: most processes never
 * run one, and every API start would pay for its modules.
 */
export const loadOidc = () => import('openid-client');

/** How long a provider's discovery document (and its keys' address) is trusted before it is read again. */
const DISCOVERY_TTL_MS = 15 * 60_000;
const REQUEST_TIMEOUT_S = 10;

export type OidcClientTerms = { issuer: string; clientId: string; clientSecret: string | null };

/**
 * The OIDC clients of the workspaces' connections, from their providers' discovery documents, kept for a
 * while per connection version (an update makes a new one). Every request to a provider goes through the
 * SSRF guard: the issuer is an address a workspace owner typed.
 */
export function createOidcClients(settings: Config['sso']) {
  let agent: ReturnType<typeof ssrfGuardedAgent> | null = null;
  const cache = new Map<string, { at: number; config: Promise<Oidc.Configuration> }>();

  const discover = async (terms: OidcClientTerms) => {
    const [oidc, { fetch: undiciFetch }] = await Promise.all([loadOidc(), import('undici')]);
    agent ??= ssrfGuardedAgent({ allowHttp: settings.allowHttp, allowPrivate: settings.allowPrivate });
    const dispatcher = agent;
    const guardedFetch: Oidc.CustomFetch = (url, options) =>
      undiciFetch(url, { ...(options as object), dispatcher }) as unknown as Promise<Response>;
    return oidc.discovery(
      new URL(terms.issuer),
      terms.clientId,
      undefined,
      terms.clientSecret === null ? oidc.None() : oidc.ClientSecretBasic(terms.clientSecret),
      {
        [oidc.customFetch]: guardedFetch,
        timeout: REQUEST_TIMEOUT_S,
        // The ID token's signature is checked against the provider's keys, not taken on the word of the TLS
        // connection it came over (openid-client's default for the code flow).
        execute: [
          oidc.enableNonRepudiationChecks,
          ...(settings.allowHttp ? [oidc.allowInsecureRequests] : []),
        ],
      },
    );
  };

  return {
    /** The provider read afresh: a connection being saved is checked against its discovery document. */
    discover,
    /** The client of a stored connection (`version`: its last update), discovered once per TTL. */
    clientFor(version: string, terms: OidcClientTerms, now: number): Promise<Oidc.Configuration> {
      const cached = cache.get(version);
      if (cached && now - cached.at < DISCOVERY_TTL_MS) return cached.config;
      const config = discover(terms);
      cache.set(version, { at: now, config });
      // A failed discovery is not kept: the next sign-in tries again.
      config.catch(() => cache.delete(version));
      if (cache.size > 1000) cache.delete(cache.keys().next().value as string);
      return config;
    },
  };
}

export type OidcClients = ReturnType<typeof createOidcClients>;
