import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type Adapter, type AdapterPayload, type Configuration } from 'oidc-provider';
import {
  cookieJar,
  escapeHtml,
  firstForm,
  loginPage,
  NO_SUCH_USER,
  pageError,
  readForm,
} from './login-page.ts';

/** A person the issuer knows, by subject. */
export type OidcUser = { email: string; emailVerified: boolean; name: string };

export type OidcClient = { client_id: string; client_secret: string; redirect_uris: string[] };

export type OidcIssuerOptions = {
  clients: OidcClient[];
  /** The people who can sign in at start, by subject; `issuer.users` changes them later. */
  users?: Record<string, OidcUser>;
};

export type OidcIssuer = {
  /** The issuer identifier (also its base URL), e.g. http://127.0.0.1:41234 */
  url: string;
  /** Who can sign in, by subject: set and delete at any time (a deleted user is refused at the form). */
  users: Map<string, OidcUser>;
  /**
   * Signs `email` in as a fresh browser would, from the client's authorization URL: it follows the
   * issuer's redirects with its cookies, submits the login form, and returns the redirect back to the
   * client (with `code` and `state`, or an `error`) without requesting it. Throws "No such user" when the
   * form refuses the email.
   */
  signIn: (authorizationUrl: string, email: string) => Promise<URL>;
  close: () => Promise<void>;
};

/**
 * A real OpenID Provider (oidc-provider) on 127.0.0.1 for the single sign-on tests: authorization code
 * flow with PKCE required, client_secret_basic, scopes `openid email profile`, and its own login page (an
 * email, no password: the test decides who exists). Nothing about it is test-shaped but the login: what the
 * service meets here is what it meets at a real issuer, so a test against it proves the client part.
 */
export async function startOidcIssuer(options: OidcIssuerOptions): Promise<OidcIssuer> {
  const users = new Map(Object.entries(options.users ?? {}));
  const subjectOf = (email: string) =>
    [...users].find(([, user]) => user.email.toLowerCase() === email.trim().toLowerCase())?.[0];

  // The issuer identifier holds the port, so the provider is made once the server listens; until then
  // (never, in practice) requests get a 503.
  let provider: Provider | undefined;
  let providerCallback: RequestListener | undefined;
  const server = createServer((req, res) => {
    if (!provider || !providerCallback) return void res.writeHead(503).end();
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const interaction = /^\/interaction\/([\w-]+)(\/login)?$/.exec(path);
    if (!interaction) return void providerCallback(req, res);
    const [, uid = '', login] = interaction;
    const handle = login && req.method === 'POST' ? submitLogin : showLogin;
    handle(provider, req, res, uid).catch((err: Error) => {
      // A missing or expired interaction (cookie lost, page reloaded after sign-in) is the browser's doing.
      const status = err.name === 'SessionNotFound' ? 400 : 500;
      res.writeHead(status, { 'content-type': 'text/plain' }).end(`${err.name}: ${err.message}`);
    });
  });
  const port = await new Promise<number>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
  );
  const url = `http://127.0.0.1:${port}`;
  provider = new Provider(url, configuration(options.clients, users));
  providerCallback = provider.callback();

  /** The interaction this browser is in (its cookie says which), if it is the one the page is for. */
  async function interactionAt(provider: Provider, req: IncomingMessage, res: ServerResponse, uid: string) {
    const details = await provider.interactionDetails(req, res);
    if (details.uid !== uid)
      throw Object.assign(new Error('interaction mismatch'), { name: 'SessionNotFound' });
    return details;
  }

  /** The login form, or (a signed-in browser asked for more than it granted) straight on with a grant. */
  async function showLogin(provider: Provider, req: IncomingMessage, res: ServerResponse, uid: string) {
    const details = await interactionAt(provider, req, res, uid);
    const signedIn = details.session?.accountId;
    if (details.prompt.name !== 'login' && signedIn && users.has(signedIn)) {
      return finish(provider, req, res, signedIn);
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    res.end(loginPage({ title: 'Sign in to the test issuer', action: `/interaction/${uid}/login` }));
  }

  async function submitLogin(provider: Provider, req: IncomingMessage, res: ServerResponse, uid: string) {
    await interactionAt(provider, req, res, uid);
    const email = (await readForm(req)).get('email') ?? '';
    const sub = subjectOf(email);
    if (!sub) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      return void res.end(
        loginPage({
          title: 'Sign in to the test issuer',
          action: `/interaction/${uid}/login`,
          email,
          error: NO_SUCH_USER,
        }),
      );
    }
    await finish(provider, req, res, sub);
  }

  /**
   * Logs `sub` in and grants what the client asked for in one step, as oidc-provider's docs show for a
   * consent page (a Grant made in the handler): the tests have no consent to give, only a user to be.
   */
  async function finish(provider: Provider, req: IncomingMessage, res: ServerResponse, sub: string) {
    const { params, grantId, prompt } = await provider.interactionDetails(req, res);
    const grant =
      (grantId ? await provider.Grant.find(grantId) : undefined) ??
      new provider.Grant({ accountId: sub, clientId: String(params.client_id) });
    grant.addOIDCScope(String(params.scope ?? 'openid'));
    // Claims asked for by name (the `claims` parameter) show at a consent prompt; granted here too, or the
    // browser would come back to this page for them.
    const missingClaims = prompt.details.missingOIDCClaims;
    if (Array.isArray(missingClaims)) grant.addOIDCClaims(missingClaims as string[]);
    await provider.interactionFinished(
      req,
      res,
      { login: { accountId: sub }, consent: { grantId: await grant.save() } },
      { mergeWithLastSubmission: false },
    );
  }

  return {
    url,
    users,
    signIn: async (authorizationUrl, email) => {
      const jar = cookieJar();
      let next = new URL(authorizationUrl);
      let form: URLSearchParams | undefined;
      for (let hop = 0; hop < 10; hop++) {
        if (next.origin !== url) return next;
        const response = await fetch(next, {
          method: form ? 'POST' : 'GET',
          body: form,
          headers: { cookie: jar.header() },
          redirect: 'manual',
        });
        jar.store(response);
        const location = response.headers.get('location');
        if (response.status >= 300 && response.status < 400 && location) {
          next = new URL(location, next);
          form = undefined;
          continue;
        }
        const html = await response.text();
        const login = response.status === 200 ? firstForm(html) : null;
        const refused = pageError(html);
        if (refused) throw new Error(`${refused}: ${email}`);
        if (!login || form) {
          throw new Error(`sign-in stopped at ${next.pathname} (${response.status}): ${html.slice(0, 200)}`);
        }
        next = new URL(login.action, next);
        form = new URLSearchParams({ ...login.fields, email });
      }
      throw new Error('sign-in went round in redirects');
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function configuration(clients: OidcClient[], users: Map<string, OidcUser>): Configuration {
  // The signing key is made here rather than left to oidc-provider, whose built-in development keys come
  // with a warning on every start.
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const signingKey = {
    ...privateKey.export({ format: 'jwk' }),
    kid: randomBytes(8).toString('hex'),
    use: 'sig',
  };
  return {
    clients: clients.map((client) => ({
      ...client,
      response_types: ['code'],
      grant_types: ['authorization_code'],
      token_endpoint_auth_method: 'client_secret_basic',
      scope: 'openid email profile',
    })),
    jwks: { keys: [signingKey] },
    // Its own store, not the built-in one: that is shared by every provider in the process and announces
    // itself with a warning; a test issuer holds a few rows for a few seconds.
    adapter: memoryAdapter(),
    cookies: { keys: [randomBytes(32).toString('hex')] },
    pkce: { required: () => true },
    scopes: ['openid', 'email', 'profile'],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    // The scopes' claims in the ID token too (oidc-provider puts them in userinfo alone by default): the
    // service reads who signed in from the ID token.
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    findAccount: (_ctx, sub) => {
      const user = users.get(sub);
      if (!user) return undefined;
      return {
        accountId: sub,
        claims: () => ({ sub, email: user.email, email_verified: user.emailVerified, name: user.name }),
      };
    },
    // Numbers instead of oidc-provider's default functions, which each print a notice when first called.
    ttl: {
      AccessToken: 600,
      AuthorizationCode: 60,
      IdToken: 600,
      Interaction: 600,
      Session: 3600,
      Grant: 3600,
    },
    renderError: (ctx, out) => {
      ctx.type = 'html';
      ctx.body = `<!doctype html><title>Error</title><h1>${escapeHtml(out.error)}</h1><p>${escapeHtml(out.error_description ?? '')}</p>`;
    },
  };
}

/** oidc-provider's storage for one issuer: its sessions, interactions, codes, tokens and grants, with their expiry. */
function memoryAdapter() {
  const rows = new Map<string, { payload: AdapterPayload; expiresAt: number }>();
  const live = (key: string) => {
    const row = rows.get(key);
    if (row && row.expiresAt <= Date.now()) rows.delete(key);
    return row && row.expiresAt > Date.now() ? row.payload : undefined;
  };
  const where = (model: string, match: (payload: AdapterPayload) => boolean) =>
    [...rows.keys()]
      .filter((key) => key.startsWith(`${model}:`))
      .map(live)
      .find((p) => p && match(p));
  return (model: string): Adapter => ({
    upsert: async (id, payload, expiresIn) => {
      rows.set(`${model}:${id}`, {
        payload,
        expiresAt: expiresIn ? Date.now() + expiresIn * 1000 : Infinity,
      });
    },
    find: async (id) => live(`${model}:${id}`),
    findByUid: async (uid) => where(model, (p) => p.uid === uid),
    findByUserCode: async (userCode) => where(model, (p) => p.userCode === userCode),
    consume: async (id) => {
      const payload = live(`${model}:${id}`);
      if (payload) payload.consumed = Math.floor(Date.now() / 1000);
    },
    destroy: async (id) => {
      rows.delete(`${model}:${id}`);
    },
    // A revoked grant takes its codes and tokens with it (a code used twice revokes what it gave).
    revokeByGrantId: async (grantId) => {
      for (const [key, row] of rows) if (row.payload.grantId === grantId) rows.delete(key);
    },
  });
}
