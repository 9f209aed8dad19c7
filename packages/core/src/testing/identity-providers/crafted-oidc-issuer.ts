import {
  createHash,
  generateKeyPairSync,
  type KeyObject,
  randomBytes,
  sign,
  timingSafeEqual,
} from 'node:crypto';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { OidcClient } from './oidc-issuer.ts';

/**
 * What the next ID token gets wrong, if anything: `forged` is signed by a key the JWKS does not hold,
 * `expired` ran out an hour ago (beyond any clock skew), `wrong-audience` was issued to another client,
 * `unsigned` has `alg: none`, `wrong-nonce` answers another authorization request.
 */
export type IdTokenDefect = 'valid' | 'forged' | 'expired' | 'wrong-audience' | 'unsigned' | 'wrong-nonce';

/** Who signs in, as the ID token says it. */
export type IdTokenClaims = { sub: string; email: string; email_verified: boolean; name: string };

export type CraftedOidcIssuerOptions = {
  clients: OidcClient[];
  /** Who an authorization is for when no `signIn` named anyone (a browser reaching the endpoint itself). */
  claims?: IdTokenClaims;
};

export type CraftedOidcIssuer = {
  url: string;
  /** The defect of the next ID token the token endpoint issues; back to `valid` once issued. */
  nextToken: IdTokenDefect;
  /**
   * Requests the authorization URL as a browser would for `claims` (who signs in) and returns the
   * redirect back to the client, with `code` and `state`, without requesting it.
   */
  signIn: (authorizationUrl: string, claims?: IdTokenClaims) => Promise<URL>;
  close: () => Promise<void>;
};

type Grant = {
  clientId: string;
  redirectUri: string;
  nonce: string | null;
  codeChallenge: string;
  claims: IdTokenClaims;
};

const base64url = (data: string | Buffer) => Buffer.from(data).toString('base64url');

/**
 * A hand-written OpenID issuer for the refusals a real one never causes: it issues, on request, an ID token
 * that is forged, expired, for another audience, unsigned, or for another nonce, so a test can show the
 * service's client refuses each. Everything else is as a real issuer does it (discovery, JWKS, the
 * authorization code flow with PKCE S256, client_secret_basic, `iss` in the authorization response), so a
 * token is refused for its defect and nothing else.
 */
export async function startCraftedOidcIssuer(options: CraftedOidcIssuerOptions): Promise<CraftedOidcIssuer> {
  const signing = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const forger = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const kid = randomBytes(8).toString('hex');
  const clients = new Map(options.clients.map((client) => [client.client_id, client]));
  const grants = new Map<string, Grant>();
  /** Who `signIn` signs in, by the ticket it hands its request as a cookie. */
  const signingIn = new Map<string, IdTokenClaims>();
  const fallbackClaims: IdTokenClaims = options.claims ?? {
    sub: 'crafted-user',
    email: 'crafted-user@example.com',
    email_verified: true,
    name: 'Crafted User',
  };

  const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) =>
    res
      .writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers })
      .end(JSON.stringify(body));

  const idToken = (grant: Grant, defect: IdTokenDefect) => {
    const now = Math.floor(Date.now() / 1000);
    const claims = {
      iss: url,
      aud: defect === 'wrong-audience' ? 'another-client' : grant.clientId,
      iat: defect === 'expired' ? now - 7200 : now,
      exp: defect === 'expired' ? now - 3600 : now + 600,
      ...(grant.nonce !== null && { nonce: defect === 'wrong-nonce' ? 'another-nonce' : grant.nonce }),
      ...grant.claims,
    };
    const alg = defect === 'unsigned' ? 'none' : 'RS256';
    const input = `${base64url(JSON.stringify({ alg, typ: 'JWT', ...(alg !== 'none' && { kid }) }))}.${base64url(JSON.stringify(claims))}`;
    if (defect === 'unsigned') return `${input}.`;
    const key: KeyObject = defect === 'forged' ? forger.privateKey : signing.privateKey;
    return `${input}.${base64url(sign('sha256', Buffer.from(input), key))}`;
  };

  const server = createServer(async (req, res) => {
    const at = new URL(req.url ?? '/', url);
    if (req.method === 'GET' && at.pathname === '/.well-known/openid-configuration') {
      return json(res, 200, {
        issuer: url,
        authorization_endpoint: `${url}/authorize`,
        token_endpoint: `${url}/token`,
        jwks_uri: `${url}/jwks`,
        response_types_supported: ['code'],
        grant_types_supported: ['authorization_code'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['RS256'],
        token_endpoint_auth_methods_supported: ['client_secret_basic'],
        code_challenge_methods_supported: ['S256'],
        scopes_supported: ['openid', 'email', 'profile'],
        claims_supported: ['sub', 'email', 'email_verified', 'name'],
        authorization_response_iss_parameter_supported: true,
      });
    }
    if (req.method === 'GET' && at.pathname === '/jwks') {
      const jwk = signing.publicKey.export({ format: 'jwk' });
      return json(res, 200, { keys: [{ ...jwk, kid, alg: 'RS256', use: 'sig' }] });
    }
    if (req.method === 'GET' && at.pathname === '/authorize') {
      const q = at.searchParams;
      const client = clients.get(q.get('client_id') ?? '');
      const redirectUri = q.get('redirect_uri') ?? '';
      // A redirect URI not registered is never redirected to: the error is shown here, as a real issuer does.
      if (!client?.redirect_uris.includes(redirectUri)) {
        return json(res, 400, {
          error: 'invalid_request',
          error_description: 'unknown client or redirect_uri',
        });
      }
      const back = new URL(redirectUri);
      const state = q.get('state');
      if (state !== null) back.searchParams.set('state', state);
      back.searchParams.set('iss', url);
      const challenge = q.get('code_challenge');
      if (q.get('response_type') !== 'code' || !challenge || q.get('code_challenge_method') !== 'S256') {
        back.searchParams.set('error', 'invalid_request');
        back.searchParams.set('error_description', 'response_type code with PKCE S256 required');
      } else {
        const ticket = /(?:^|;\s*)crafted_user=([^;]+)/.exec(req.headers.cookie ?? '')?.[1];
        const code = randomBytes(16).toString('base64url');
        grants.set(code, {
          clientId: client.client_id,
          redirectUri,
          nonce: q.get('nonce'),
          codeChallenge: challenge,
          claims: (ticket && signingIn.get(ticket)) || fallbackClaims,
        });
        back.searchParams.set('code', code);
      }
      return void res.writeHead(303, { location: back.href }).end();
    }
    if (req.method === 'POST' && at.pathname === '/token') {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
      // client_secret_basic: id and secret each form-urlencoded, then joined by a colon in Basic.
      const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? '')?.[1];
      const [id = '', secret = ''] = Buffer.from(basic ?? '', 'base64')
        .toString('utf8')
        .split(':')
        .map((part) => decodeURIComponent(part.replace(/\+/g, ' ')));
      const client = clients.get(id);
      if (!basic || !client || !sameText(client.client_secret, secret)) {
        return json(
          res,
          401,
          { error: 'invalid_client', error_description: 'client authentication failed' },
          { 'www-authenticate': 'Basic realm="token"' },
        );
      }
      if (form.get('grant_type') !== 'authorization_code') {
        return json(res, 400, { error: 'unsupported_grant_type' });
      }
      const code = form.get('code') ?? '';
      const grant = grants.get(code);
      grants.delete(code);
      if (!grant || grant.clientId !== id || grant.redirectUri !== form.get('redirect_uri')) {
        return json(res, 400, { error: 'invalid_grant', error_description: 'authorization code invalid' });
      }
      const verifier = form.get('code_verifier') ?? '';
      if (createHash('sha256').update(verifier).digest('base64url') !== grant.codeChallenge) {
        return json(res, 400, { error: 'invalid_grant', error_description: 'PKCE verification failed' });
      }
      const defect = issuer.nextToken;
      issuer.nextToken = 'valid';
      return json(res, 200, {
        access_token: randomBytes(16).toString('base64url'),
        token_type: 'Bearer',
        expires_in: 600,
        scope: 'openid email profile',
        id_token: idToken(grant, defect),
      });
    }
    json(res, 404, { error: 'not_found' });
  });
  const port = await new Promise<number>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
  );
  const url = `http://127.0.0.1:${port}`;

  const issuer: CraftedOidcIssuer = {
    url,
    nextToken: 'valid',
    signIn: async (authorizationUrl, claims = fallbackClaims) => {
      const ticket = randomBytes(8).toString('hex');
      signingIn.set(ticket, claims);
      try {
        const response = await fetch(authorizationUrl, {
          redirect: 'manual',
          headers: { cookie: `crafted_user=${ticket}` },
        });
        const location = response.headers.get('location');
        if (response.status !== 303 || !location) {
          throw new Error(`authorization refused (${response.status}): ${await response.text()}`);
        }
        return new URL(location);
      } finally {
        signingIn.delete(ticket);
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return issuer;
}

function sameText(a: string, b: string) {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
