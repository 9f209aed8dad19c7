import type { SsoConnection } from '@verdict/contracts';

/** Where a sign-in starts, for a workspace's slug (the console's link). */
export const signInPath = (slug: string) => `/api/auth/sso/${encodeURIComponent(slug)}`;

/**
 * This service as a workspace's provider must know it: where a sign-in starts, the OIDC redirect URI, and
 * the SAML assertion consumer service and entity id (the metadata's address, as is customary). Each is
 * the workspace's own (by slug, which never changes), so two workspaces' providers never share an audience.
 */
export function serviceProviderOf(publicBaseUrl: string, slug: string): SsoConnection['serviceProvider'] {
  const base = `${publicBaseUrl}${signInPath(slug)}`;
  return {
    signInUrl: base,
    redirectUri: `${base}/oidc/callback`,
    acsUrl: `${base}/saml/acs`,
    entityId: `${base}/saml/metadata`,
    metadataUrl: `${base}/saml/metadata`,
  };
}
