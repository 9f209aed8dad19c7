import type * as Oidc from 'openid-client';
import { takeSignIn } from './answered-sign-in.ts';
import { completeSignIn, type ProvenIdentity, type SignedIn } from './complete-sign-in.ts';
import { loadOidc, type OidcClients } from './oidc-client.ts';
import { oidcTermsOf } from './oidc-terms.ts';
import type { SecretBox } from './secret-box.ts';
import { serviceProviderOf } from './service-provider.ts';
import { messageOf, SsoRefused } from './sign-in-refusal.ts';
import type { SsoResources } from './sso-resources.ts';
import { type SignInTarget, signInTarget } from './workspace-connection.ts';

type Deps = SsoResources & { oidcClients: OidcClients; secretBox: SecretBox | null };

/**
 * GET /api/auth/sso/:slug/oidc/callback: the provider's answer. The state names the sign-in (used once);
 * the browser must be the one that started it; openid-client redeems the code with the PKCE verifier and
 * verifies the ID token (signature by the provider's keys, issuer, audience, expiry, nonce). The email must
 * be verified by the provider.
 */
export const finishOidcSignIn =
  (deps: Deps) =>
  async (
    slug: string,
    query: string,
    binding: string | undefined,
    onTarget: (t: SignInTarget) => void,
  ): Promise<SignedIn> => {
    const { db, clock, config } = deps;
    const target = await signInTarget(db.em(), slug);
    onTarget(target);
    const callbackUrl = new URL(
      `${serviceProviderOf(config.publicBaseUrl, target.slug).redirectUri}${query}`,
    );
    const request = await takeSignIn(deps, target, callbackUrl.searchParams.get('state'), binding);
    const client = await deps.oidcClients
      .clientFor(
        `${target.workspaceId}@${target.connection.updated_at}`,
        oidcTermsOf(target.connection, deps.secretBox),
        clock.now(),
      )
      .catch((error: unknown) => {
        throw new SsoRefused('provider_error', messageOf(error));
      });
    const oidc = await loadOidc();
    let claims: Oidc.IDToken | undefined;
    try {
      const tokens = await oidc.authorizationCodeGrant(client, callbackUrl, {
        pkceCodeVerifier: request.codeVerifier ?? '',
        expectedState: request.id,
        expectedNonce: request.nonce ?? '',
        idTokenExpected: true,
      });
      claims = tokens.claims();
    } catch (error) {
      throw new SsoRefused(oidcRefusalOf(oidc, error), messageOf(error));
    }
    if (!claims) throw new SsoRefused('invalid_response', 'no ID token');
    const identity = identityOf(claims);
    return completeSignIn(deps, target, request, identity);
  };

function identityOf(claims: Oidc.IDToken): ProvenIdentity {
  const email = typeof claims.email === 'string' ? claims.email : null;
  if (!email || claims.email_verified !== true) {
    throw new SsoRefused('no_email', email ? `${email} is not verified by the provider` : 'no email claim');
  }
  return { subject: claims.sub, email, name: typeof claims.name === 'string' ? claims.name : null };
}

/** What openid-client's refusal means for the person, from its words (oauth4webapi's messages). */
export function oidcRefusalOf(oidc: typeof Oidc, error: unknown): SsoRefused['reason'] {
  if (error instanceof oidc.AuthorizationResponseError || error instanceof oidc.ResponseBodyError) {
    return 'provider_error';
  }
  const message = messageOf(error);
  if (/signature verification failed|no applicable keys/i.test(message)) return 'bad_signature';
  if (/"alg" header parameter/.test(message)) return 'unsigned';
  if (/"exp"|"nbf"|"iat"/.test(message)) return 'expired';
  if (/"aud"|"azp"/.test(message)) return 'wrong_audience';
  if (/nonce/.test(message)) return 'wrong_nonce';
  if (/fetch failed|ECONN|timed? ?out|abort/i.test(message)) return 'provider_error';
  return 'invalid_response';
}
