import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CraftedOidcIssuer, type IdTokenDefect, startCraftedOidcIssuer } from './crafted-oidc-issuer.ts';
import { type OidcIssuer, startOidcIssuer } from './oidc-issuer.ts';

// The providers are checked with the libraries the service signs in with, configured as it configures
// them: what they accept and refuse here is what the service will accept and refuse.

const redirectUri = 'http://127.0.0.1:9/sso/oidc/callback';
const ada = { email: 'ada@example.com', emailVerified: true, name: 'Ada Lovelace' };

/** One authorization as the service starts it: PKCE S256, state and nonce. */
async function authorization(config: client.Configuration) {
  const pkceCodeVerifier = client.randomPKCECodeVerifier();
  const expectedState = client.randomState();
  const expectedNonce = client.randomNonce();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope: 'openid email profile',
    code_challenge: await client.calculatePKCECodeChallenge(pkceCodeVerifier),
    code_challenge_method: 'S256',
    state: expectedState,
    nonce: expectedNonce,
  });
  return { url: url.href, checks: { pkceCodeVerifier, expectedState, expectedNonce } };
}

const discover = (issuer: string, secret = 'secret-1') =>
  client.discovery(new URL(issuer), 'verdict', undefined, client.ClientSecretBasic(secret), {
    execute: [client.allowInsecureRequests],
  });

/**
 * Why a grant was refused, from openid-client's error down to the check that failed (openid-client says
 * "unexpected JWT claim value encountered"; its cause says which claim), with an OAuth error's code and
 * description; "accepted" when it was not refused.
 */
async function refusal(grant: Promise<unknown>): Promise<string> {
  try {
    await grant;
    return 'accepted';
  } catch (err) {
    const reasons: string[] = [];
    for (let e: unknown = err; e instanceof Error; e = e.cause) {
      const { error, error_description } = e as { error?: string; error_description?: string };
      reasons.push(error ? `${e.message} (${error}: ${error_description})` : e.message);
    }
    return reasons.join(' / ');
  }
}

describe('the OIDC issuer (oidc-provider)', () => {
  let issuer: OidcIssuer;
  let config: client.Configuration;
  beforeAll(async () => {
    issuer = await startOidcIssuer({
      clients: [{ client_id: 'verdict', client_secret: 'secret-1', redirect_uris: [redirectUri] }],
      users: { 'sub-ada': ada },
    });
    config = await discover(issuer.url);
  });
  afterAll(() => issuer.close());

  it('signs a user in through its login form: the ID token names them', async () => {
    const { url, checks } = await authorization(config);
    const callback = await issuer.signIn(url, 'ada@example.com');
    expect(callback.searchParams.get('state')).toBe(checks.expectedState);
    const tokens = await client.authorizationCodeGrant(config, callback, checks);
    expect(tokens.claims()).toMatchObject({
      iss: issuer.url,
      aud: 'verdict',
      sub: 'sub-ada',
      email: 'ada@example.com',
      email_verified: true,
      name: 'Ada Lovelace',
    });
  });

  it('refuses an unknown email at the form', async () => {
    const { url } = await authorization(config);
    await expect(issuer.signIn(url, 'nobody@example.com')).rejects.toThrow(/No such user/);
  });

  it('refuses a user removed at the provider, at the form and at the token endpoint', async () => {
    issuer.users.set('sub-grace', { email: 'grace@example.com', emailVerified: true, name: 'Grace' });
    const first = await authorization(config);
    const callback = await issuer.signIn(first.url, 'grace@example.com');
    issuer.users.delete('sub-grace');
    // Removed between the redirect and the code's redemption: the code is worth nothing.
    expect(await refusal(client.authorizationCodeGrant(config, callback, first.checks))).toMatch(
      /\(invalid_grant: grant request is invalid\)$/,
    );
    const second = await authorization(config);
    await expect(issuer.signIn(second.url, 'grace@example.com')).rejects.toThrow(/No such user/);
  });

  it('refuses a wrong client secret and a wrong PKCE verifier at the token endpoint', async () => {
    const { url, checks } = await authorization(config);
    const callback = await issuer.signIn(url, 'ada@example.com');
    const wrongSecret = await discover(issuer.url, 'not-the-secret');
    expect(await refusal(client.authorizationCodeGrant(wrongSecret, callback, checks))).toMatch(
      /^server responded with a challenge in the WWW-Authenticate HTTP Header$/,
    );
    const again = await authorization(config);
    const next = await issuer.signIn(again.url, 'ada@example.com');
    expect(
      await refusal(
        client.authorizationCodeGrant(config, next, {
          ...again.checks,
          pkceCodeVerifier: checks.pkceCodeVerifier,
        }),
      ),
    ).toMatch(/\(invalid_grant: grant request is invalid\)$/);
  });
});

describe('the crafted OIDC issuer', () => {
  let issuer: CraftedOidcIssuer;
  /** openid-client as the service must set it up: checking the ID token's signature too (see below). */
  let config: client.Configuration;
  const claims = { sub: 'sub-ada', email: 'ada@example.com', email_verified: true, name: 'Ada Lovelace' };
  beforeAll(async () => {
    issuer = await startCraftedOidcIssuer({
      clients: [{ client_id: 'verdict', client_secret: 'secret-1', redirect_uris: [redirectUri] }],
    });
    config = await discover(issuer.url);
    client.enableNonRepudiationChecks(config);
  });
  afterAll(() => issuer.close());

  const grantWith = async (defect: IdTokenDefect, configuration = config) => {
    const { url, checks } = await authorization(configuration);
    const callback = await issuer.signIn(url, claims);
    issuer.nextToken = defect;
    return client.authorizationCodeGrant(configuration, callback, checks);
  };

  it('issues a valid ID token that openid-client accepts', async () => {
    expect((await grantWith('valid')).claims()).toMatchObject({ ...claims, iss: issuer.url, aud: 'verdict' });
  });

  it.each<[IdTokenDefect, RegExp]>([
    ['forged', /^invalid response encountered \/ JWT signature verification failed/],
    [
      'expired',
      /^JWT timestamp claim value failed validation \/ unexpected JWT "exp" \(expiration time\) claim value, expiration is past current timestamp/,
    ],
    [
      'wrong-audience',
      /^unexpected JWT claim value encountered \/ unexpected JWT "aud" \(audience\) claim value/,
    ],
    ['unsigned', /^invalid response encountered \/ unexpected JWT "alg" header parameter/],
    ['wrong-nonce', /^unexpected JWT claim value encountered \/ unexpected ID Token "nonce" claim value/],
  ])('issues a %s ID token that openid-client refuses', async (defect, reason) => {
    expect(await refusal(grantWith(defect))).toMatch(reason);
  });

  // openid-client trusts the TLS connection to the token endpoint for the ID token it answers (OpenID
  // Connect Core 3.1.3.7 allows it) and checks no signature unless asked: a service that leaves out
  // enableNonRepudiationChecks accepts a forged token. This test shows it, so that the day it changes is seen.
  it('issues a forged ID token that openid-client accepts without enableNonRepudiationChecks', async () => {
    const trusting = await discover(issuer.url);
    expect((await grantWith('forged', trusting)).claims()).toMatchObject({ sub: 'sub-ada' });
  });

  it('checks the client secret and the PKCE verifier', async () => {
    const first = await authorization(config);
    const wrongSecret = await discover(issuer.url, 'not-the-secret');
    expect(
      await refusal(
        client.authorizationCodeGrant(wrongSecret, await issuer.signIn(first.url, claims), first.checks),
      ),
    ).toMatch(/^server responded with a challenge in the WWW-Authenticate HTTP Header$/);
    const second = await authorization(config);
    const callback = await issuer.signIn(second.url, claims);
    const otherVerifier = { ...second.checks, pkceCodeVerifier: client.randomPKCECodeVerifier() };
    expect(await refusal(client.authorizationCodeGrant(config, callback, otherVerifier))).toMatch(
      /\(invalid_grant: PKCE verification failed\)/,
    );
  });
});
