import { randomToken, sha256Hex } from '../shared/crypto.ts';
import { loadOidc, type OidcClients } from './oidc-client.ts';
import { oidcTermsOf } from './oidc-terms.ts';
import { samlClient } from './saml-client.ts';
import type { SecretBox } from './secret-box.ts';
import { serviceProviderOf } from './service-provider.ts';
import { messageOf, SsoRefused } from './sign-in-refusal.ts';
import { openRequest } from './sign-in-requests.ts';
import type { SsoResources } from './sso-resources.ts';
import { signInTarget } from './workspace-connection.ts';

export type StartedSignIn = {
  /** Where to send the browser: the provider's authorization endpoint or SSO URL, with the request. */
  redirectUrl: string;
  /** The random value the browser keeps in a cookie: the answer must come back to the same browser. */
  binding: string;
};

/** A path of this service to go back to, or the console's start: never another site (`//evil`, `/\evil`). */
export const safeReturnTo = (value: string | undefined) =>
  value && /^\/([^/\\\s][^\s\\]*)?$/.test(value) && value.length <= 2000 ? value : '/';

type Deps = SsoResources & { oidcClients: OidcClients; secretBox: SecretBox | null };

/**
 * GET /api/auth/sso/:slug: a sign-in through the workspace's provider begins. What the answer will be
 * checked against is stored (the OIDC state, nonce and PKCE verifier; the SAML request's ID), with who is
 * signed in now, if anyone (their account may be linked), and a binding value the browser keeps.
 */
export const startSignIn =
  (deps: Deps) =>
  async (
    slug: string,
    options: { returnTo?: string; signedInUserId?: string | null },
  ): Promise<StartedSignIn> => {
    const { db, clock, config } = deps;
    const target = await signInTarget(db.em(), slug);
    const { connection } = target;
    const binding = randomToken(24);
    const request = {
      workspaceId: target.workspaceId,
      protocol: connection.protocol,
      bindingHash: sha256Hex(binding),
      returnTo: safeReturnTo(options.returnTo),
      linkingUserId: options.signedInUserId ?? null,
    };
    const sp = serviceProviderOf(config.publicBaseUrl, target.slug);
    let redirectUrl: string;
    let stored: { id: string; codeVerifier: string | null; nonce: string | null };
    if (connection.protocol === 'oidc') {
      const client = await deps.oidcClients
        .clientFor(
          `${target.workspaceId}@${connection.updated_at}`,
          oidcTermsOf(connection, deps.secretBox),
          clock.now(),
        )
        .catch((error: unknown) => {
          throw new SsoRefused('provider_error', messageOf(error));
        });
      const oidc = await loadOidc();
      const codeVerifier = oidc.randomPKCECodeVerifier();
      stored = { id: oidc.randomState(), codeVerifier, nonce: oidc.randomNonce() };
      redirectUrl = oidc
        .buildAuthorizationUrl(client, {
          redirect_uri: sp.redirectUri,
          scope: 'openid email profile',
          code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
          code_challenge_method: 'S256',
          state: stored.id,
          nonce: stored.nonce as string,
        })
        .toString();
    } else {
      // An XML ID must not start with a digit.
      stored = { id: `_${randomToken(24)}`, codeVerifier: null, nonce: null };
      const saml = await samlClient(config.publicBaseUrl, target.slug, connection, { new: stored.id });
      redirectUrl = await saml.getAuthorizeUrlAsync(stored.id, undefined, {});
    }
    await db.em().transactional((em) => openRequest(em, { ...request, ...stored }, new Date(clock.now())));
    return { redirectUrl, binding };
  };
