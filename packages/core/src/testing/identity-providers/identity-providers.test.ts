import { inflateRawSync } from 'node:zlib';
import { type CacheProvider, SAML, ValidateInResponseTo } from '@node-saml/node-saml';
import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CraftedOidcIssuer, type IdTokenDefect, startCraftedOidcIssuer } from './crafted-oidc-issuer.ts';
import { type OidcIssuer, startOidcIssuer } from './oidc-issuer.ts';
import { type SamlIdp, type SamlResponseDefect, startSamlIdp } from './saml-idp.ts';

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

describe('the SAML IdP', () => {
  const spEntityId = 'urn:verdict-test:sp';
  const acsUrl = 'http://127.0.0.1:9/sso/saml/acs';
  let idp: SamlIdp;
  let saml: SAML;
  beforeAll(async () => {
    idp = await startSamlIdp({
      users: { 'ada@example.com': { email: 'ada@example.com', name: 'Ada Lovelace' } },
    });
    saml = new SAML({
      idpCert: idp.certificate,
      issuer: spEntityId,
      callbackUrl: acsUrl,
      audience: spEntityId,
      entryPoint: idp.ssoUrl,
      wantAssertionsSigned: true,
      wantAuthnResponseSigned: false,
      validateInResponseTo: ValidateInResponseTo.always,
      cacheProvider: memoryCache(),
      acceptedClockSkewMs: 60_000,
      identifierFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
    });
  });
  afterAll(() => idp.close());

  /** An AuthnRequest's ID as the service remembers it: made by node-saml, saved in its cache. */
  const requestId = async () => {
    const url = new URL(await saml.getAuthorizeUrlAsync('relay-1', undefined, {}));
    const xml = inflateRawSync(Buffer.from(url.searchParams.get('SAMLRequest') ?? '', 'base64')).toString();
    return /\bID="([^"]+)"/.exec(xml)?.[1] ?? '';
  };
  const respond = async (defect: SamlResponseDefect) =>
    idp.response({
      acsUrl,
      audience: spEntityId,
      inResponseTo: await requestId(),
      email: 'ada@example.com',
      defect,
    });

  it('issues a valid signed response that node-saml accepts, once', async () => {
    const SAMLResponse = await respond('valid');
    const { profile } = await saml.validatePostResponseAsync({ SAMLResponse, RelayState: 'relay-1' });
    expect(profile).toMatchObject({
      issuer: idp.entityId,
      nameID: 'ada@example.com',
      nameIDFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
      email: 'ada@example.com',
      name: 'ada@example.com',
    });
    // The request's ID left the cache when it was answered: the same response again is a replay.
    await expect(saml.validatePostResponseAsync({ SAMLResponse, RelayState: 'relay-1' })).rejects.toThrow(
      /^InResponseTo is not valid$/,
    );
  });

  it.each<[SamlResponseDefect, RegExp]>([
    ['forged', /^Invalid signature$/],
    ['unsigned', /^Invalid signature$/],
    // The subject confirmation's window is checked before the conditions', so that is what is reported.
    ['expired', /^No valid subject confirmation found among those available in the SAML assertion$/],
    ['wrong-audience', /^SAML assertion audience mismatch. Expected: urn:verdict-test:sp Received: /],
  ])('issues a %s response that node-saml refuses', async (defect, error) => {
    await expect(saml.validatePostResponseAsync({ SAMLResponse: await respond(defect) })).rejects.toThrow(
      error,
    );
  });

  it('issues a wrong-recipient response that node-saml 5 accepts: the service must check the Recipient', async () => {
    const { profile } = await saml.validatePostResponseAsync({
      SAMLResponse: await respond('wrong-recipient'),
    });
    const assertion = profile?.getAssertion?.() as {
      Assertion: {
        Subject: { SubjectConfirmation: { SubjectConfirmationData: { $: { Recipient: string } }[] }[] }[];
      };
    };
    const recipient =
      assertion.Assertion.Subject[0]?.SubjectConfirmation[0]?.SubjectConfirmationData[0]?.$.Recipient;
    expect(recipient).toBe('https://another-service.invalid/saml/acs');
    expect(recipient).not.toBe(acsUrl);
  });

  it('signs a user in through its login form, answering the AuthnRequest', async () => {
    const authorizeUrl = await saml.getAuthorizeUrlAsync('relay-2', undefined, {});
    const post = await idp.signIn(authorizeUrl, 'ada@example.com');
    expect(post).toMatchObject({ acsUrl, RelayState: 'relay-2' });
    const { profile } = await saml.validatePostResponseAsync(post);
    expect(profile).toMatchObject({
      nameID: 'ada@example.com',
      email: 'ada@example.com',
      name: 'Ada Lovelace',
    });
    expect(idp.metadataXml).toContain(`Location="${idp.ssoUrl}"`);
  });

  it('refuses an unknown or removed user at the form', async () => {
    await expect(
      idp.signIn(await saml.getAuthorizeUrlAsync('', undefined, {}), 'nobody@example.com'),
    ).rejects.toThrow(/No such user/);
    idp.users.delete('ada@example.com');
    await expect(
      idp.signIn(await saml.getAuthorizeUrlAsync('', undefined, {}), 'ada@example.com'),
    ).rejects.toThrow(/No such user/);
    idp.users.set('ada@example.com', { email: 'ada@example.com', name: 'Ada Lovelace' });
  });
});

/** The service's request-ID cache, in memory: saved on AuthnRequest, taken on response. */
function memoryCache(): CacheProvider {
  const items = new Map<string, { value: string; createdAt: number }>();
  return {
    saveAsync: async (key, value) => {
      if (items.has(key)) return null;
      const item = { value, createdAt: Date.now() };
      items.set(key, item);
      return item;
    },
    getAsync: async (key) => items.get(key)?.value ?? null,
    removeAsync: async (key) => {
      if (key === null) return null;
      const value = items.get(key)?.value ?? null;
      items.delete(key);
      return value;
    },
  };
}
