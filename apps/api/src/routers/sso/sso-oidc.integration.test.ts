import type { SsoConnection, Workspace } from '@verdict/contracts';
import {
  auditTrailOf,
  type CraftedOidcIssuer,
  type IdTokenDefect,
  type OidcIssuer,
  startCraftedOidcIssuer,
  startOidcIssuer,
} from '@verdict/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createKey,
  expectError,
  type Harness,
  registerUser,
  startServer,
  type TestUser,
} from '../../testing/http-harness.ts';
import { ssoBrowser } from '../../testing/sso-browser.ts';

/** Where the providers send people back: the harness listens elsewhere, and the browser maps one to the other. */
const PUBLIC = 'http://verdict.sso.test';
const SECRET = 'the-client-secret-of-acme';

describe('single sign-on through an OIDC provider, over HTTP', () => {
  let h: Harness;
  let issuer: OidcIssuer;
  let crafted: CraftedOidcIssuer;
  let owner: TestUser;
  let workspace: Workspace;
  let hostile: Workspace;
  const as = (user: { cookie: string }) => ({ cookie: user.cookie });
  const trail = async (workspaceId: string) => auditTrailOf(h.core.db, { workspaceId });
  const callbackOf = (slug: string) => `${PUBLIC}/api/auth/sso/${slug}/oidc/callback`;

  const newWorkspace = async (slug: string) => {
    const res = await h.request<Workspace>('POST', '/api/workspaces', {
      ...as(owner),
      body: { name: slug, slug },
    });
    expect(res.status).toBe(201);
    return res.json;
  };
  const configure = (id: string, body: Record<string, unknown>, user: { cookie: string } = owner) =>
    h.request<SsoConnection>('PUT', `/api/workspaces/${id}/sso`, { ...as(user), body });

  beforeAll(async () => {
    h = await startServer({
      env: {
        PUBLIC_BASE_URL: PUBLIC,
        APP_URL: PUBLIC,
        SSO_SECRET_KEY: 'k'.repeat(40),
        SSO_ALLOW_HTTP: 'true',
        SSO_ALLOW_PRIVATE: 'true',
      },
    });
    owner = await registerUser(h, { email: 'owner@acme.test' });
    await h.core.accounts.setPlan(owner.session.user.id, 'enterprise');
    workspace = await newWorkspace('acme');
    hostile = await newWorkspace('acme-crafted');
    issuer = await startOidcIssuer({
      clients: [{ client_id: 'verdict', client_secret: SECRET, redirect_uris: [callbackOf('acme')] }],
      users: {
        'sub-ada': { email: 'ada@acme.test', emailVerified: true, name: 'Ada Lovelace' },
        'sub-eve': { email: 'eve@elsewhere.test', emailVerified: true, name: 'Eve' },
        'sub-bob': { email: 'bob@acme.test', emailVerified: true, name: 'Bob' },
        'sub-una': { email: 'una@acme.test', emailVerified: false, name: 'Una' },
        'sub-carol': { email: 'carol@acme.test', emailVerified: true, name: 'Carol' },
      },
    });
    crafted = await startCraftedOidcIssuer({
      clients: [{ client_id: 'verdict', client_secret: SECRET, redirect_uris: [callbackOf('acme-crafted')] }],
    });
  }, 60_000);
  afterAll(async () => {
    await issuer?.close();
    await crafted?.close();
    await h?.close();
  });

  /** Start in `browser`, sign in at the provider as `email`, come back: the service's last answer. */
  const signIn = async (browser = ssoBrowser(h, PUBLIC), email = 'ada@acme.test', slug = 'acme') => {
    const started = await browser.get(`/api/auth/sso/${slug}?returnTo=/debates`);
    expect(started.status).toBe(302);
    const back = await issuer.signIn(started.location, email);
    return { browser, back, answer: await browser.get(back.toString()) };
  };
  const refusedWith = (answer: { status: number; location: string }, reason: string) => {
    expect(answer.status).toBe(303);
    expect(answer.location).toBe(`${PUBLIC}/sign-in?sso_error=${reason}`);
  };
  const refusalsIn = async (workspaceId: string) =>
    (await trail(workspaceId))
      .filter((entry) => entry.action === 'sso.sign_in_refused')
      .map((entry) => entry.changes);

  it('is set up by the owner: the issuer is read, the secret stored sealed and never shown', async () => {
    const res = await configure(workspace.id, {
      protocol: 'oidc',
      issuer: issuer.url,
      clientId: 'verdict',
      clientSecret: SECRET,
      allowedDomains: ['ACME.test'],
    });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({
      protocol: 'oidc',
      issuer: issuer.url,
      clientId: 'verdict',
      hasClientSecret: true,
      allowedDomains: ['acme.test'],
      defaultRole: 'member',
      requireSso: false,
      serviceProvider: { redirectUri: callbackOf('acme'), signInUrl: `${PUBLIC}/api/auth/sso/acme` },
    });
    expect(res.text).not.toContain(SECRET);
    const stored = await h.core.db.execute<{ client_secret_sealed: string }>(
      'select client_secret_sealed from sso_connections where workspace_id = ?',
      [workspace.id],
    );
    expect(stored[0]?.client_secret_sealed).toMatch(/^v1\./);
    expect(stored[0]?.client_secret_sealed).not.toContain(SECRET);
    const [created] = (await trail(workspace.id)).filter((e) => e.action === 'sso_connection.create');
    expect(created?.changes).toMatchObject({
      clientSecret: { changed: true },
      issuer: { before: null, after: issuer.url },
    });
    expect(JSON.stringify(created?.changes)).not.toContain(SECRET);
  });

  it('refuses an issuer whose discovery cannot be read with 400 naming the issuer, and stores nothing', async () => {
    const res = await configure(hostile.id, {
      protocol: 'oidc',
      issuer: 'http://127.0.0.1:9/nothing-here',
      clientId: 'verdict',
      allowedDomains: ['acme.test'],
    });
    const error = expectError(res, 'VALIDATION_ERROR');
    expect(error.details?.[0]).toMatchObject({ path: 'issuer' });
    expect((await h.request('GET', `/api/workspaces/${hostile.id}/sso`, as(owner))).status).toBe(404);
  });

  it('signs someone new in just in time: an account, a member with the default role, a session for the workspace', async () => {
    const { browser, answer } = await signIn();
    expect(answer.status).toBe(303);
    expect(answer.location).toBe(`${PUBLIC}/debates`);
    expect(browser.cookies.has('verdict_sso')).toBe(false);
    const session = await h.request<{ user: { email: string; name: string } }>('GET', '/api/auth/session', {
      cookie: browser.session(),
    });
    expect(session.status).toBe(200);
    expect(session.json.user).toMatchObject({ email: 'ada@acme.test', name: 'Ada Lovelace' });
    const members = await h.request<{ members: { email: string; role: string }[] }>(
      'GET',
      `/api/workspaces/${workspace.id}/members`,
      as(owner),
    );
    expect(members.json.members).toContainEqual(
      expect.objectContaining({ email: 'ada@acme.test', role: 'member' }),
    );
    const actions = (await trail(workspace.id)).map((e) => e.action);
    expect(actions).toContain('workspace_member.add');
    expect(actions.filter((a) => a === 'sso.sign_in')).toHaveLength(1);

    // Again: the same account, found by the provider's subject; no second member row.
    const again = await signIn();
    expect(again.answer.status).toBe(303);
    const second = await h.request<{ user: { id: string } }>('GET', '/api/auth/session', {
      cookie: again.browser.session(),
    });
    const first = await h.request<{ user: { id: string } }>('GET', '/api/auth/session', {
      cookie: browser.session(),
    });
    expect(second.json.user.id).toBe(first.json.user.id);
    const after = await h.request<{ members: unknown[] }>(
      'GET',
      `/api/workspaces/${workspace.id}/members`,
      as(owner),
    );
    expect(after.json.members).toHaveLength(members.json.members.length);
  });

  it('refuses a replayed answer, and an answer brought to another browser, each with an audit entry', async () => {
    const { browser, back, answer } = await signIn();
    expect(answer.status).toBe(303);
    refusedWith(await browser.get(back.toString()), 'replayed');

    const started = await ssoBrowser(h, PUBLIC).get('/api/auth/sso/acme');
    const stolen = await issuer.signIn(started.location, 'ada@acme.test');
    const other = ssoBrowser(h, PUBLIC);
    refusedWith(await other.get(stolen.toString()), 'other_browser');
    expect(other.session()).toBeUndefined();
    const reasons = (await refusalsIn(workspace.id)).map(
      (changes) => (changes.reason as { after: string }).after,
    );
    expect(reasons).toEqual(expect.arrayContaining(['replayed', 'other_browser']));
  });

  it('refuses an email outside the allowed domains, and one the provider did not verify', async () => {
    refusedWith((await signIn(undefined, 'eve@elsewhere.test')).answer, 'domain_not_allowed');
    refusedWith((await signIn(undefined, 'una@acme.test')).answer, 'no_email');
    const users = await h.core.db.execute<{ n: number }>(
      `select count(*)::int as n from users where email in ('eve@elsewhere.test', 'una@acme.test')`,
    );
    expect(users[0]?.n).toBe(0);
  });

  it('never lets the provider take over an existing account, unless its own session starts the sign-in', async () => {
    const bob = await registerUser(h, { email: 'bob@acme.test' });
    refusedWith((await signIn(undefined, 'bob@acme.test')).answer, 'account_exists');

    const browser = ssoBrowser(h, PUBLIC);
    browser.cookies.set('verdict_session', bob.cookie);
    const linked = await signIn(browser, 'bob@acme.test');
    expect(linked.answer.status).toBe(303);
    const session = await h.request<{ user: { id: string } }>('GET', '/api/auth/session', {
      cookie: browser.session(),
    });
    expect(session.json.user.id).toBe(bob.session.user.id);
    // Linked now: a browser with no session signs in as Bob through the provider.
    const later = await signIn(undefined, 'bob@acme.test');
    expect(later.answer.status).toBe(303);
  });

  it.each<[IdTokenDefect, string]>([
    ['forged', 'bad_signature'],
    ['expired', 'expired'],
    ['wrong-audience', 'wrong_audience'],
    ['unsigned', 'unsigned'],
    ['wrong-nonce', 'wrong_nonce'],
  ])('refuses a %s ID token (%s), signs no one in, and records why', async (defect, reason) => {
    const configured = await configure(hostile.id, {
      protocol: 'oidc',
      issuer: crafted.url,
      clientId: 'verdict',
      clientSecret: SECRET,
      allowedDomains: ['acme.test'],
    });
    expect(configured.status, configured.text).toBe(200);
    const browser = ssoBrowser(h, PUBLIC);
    const started = await browser.get('/api/auth/sso/acme-crafted');
    crafted.nextToken = defect;
    const back = await crafted.signIn(started.location, {
      sub: `crafted-${defect}`,
      email: `${defect}@acme.test`,
      email_verified: true,
      name: defect,
    });
    refusedWith(await browser.get(back.toString()), reason);
    expect(browser.session()).toBeUndefined();
    const refusals = await refusalsIn(hostile.id);
    expect(refusals.at(-1)).toMatchObject({ reason: { after: reason } });
    const users = await h.core.db.execute<{ n: number }>(
      'select count(*)::int as n from users where email = ?',
      [`${defect}@acme.test`],
    );
    expect(users[0]?.n).toBe(0);
  });

  it('signs a valid token of the crafted issuer in (its refusals above are for their defects only)', async () => {
    const browser = ssoBrowser(h, PUBLIC);
    const started = await browser.get('/api/auth/sso/acme-crafted');
    crafted.nextToken = 'valid';
    const back = await crafted.signIn(started.location, {
      sub: 'crafted-valid',
      email: 'valid@acme.test',
      email_verified: true,
      name: 'Valid',
    });
    expect((await browser.get(back.toString())).status).toBe(303);
    expect(browser.session()).toBeDefined();
  });

  it('sends a sign-in for a workspace without single sign-on back to the sign-in page', async () => {
    refusedWith(await ssoBrowser(h, PUBLIC).get('/api/auth/sso/no-such-workspace'), 'not_configured');
  });

  it('holds the members its provider vouches for to SSO when required, not those merely invited; the owner keeps a recorded break-glass password', async () => {
    const carol = await registerUser(h, { email: 'carol@acme.test' });
    const dave = await registerUser(h, { email: 'dave@outside.test' });
    for (const user of [carol, dave]) {
      const invited = await h.request('POST', `/api/workspaces/${workspace.id}/members`, {
        ...as(owner),
        body: { email: user.email, role: 'member' },
      });
      expect(invited.status).toBe(201);
    }
    const res = await configure(workspace.id, {
      protocol: 'oidc',
      issuer: issuer.url,
      clientId: 'verdict',
      allowedDomains: ['acme.test'],
      requireSso: true,
    });
    expect(res.json).toMatchObject({ requireSso: true, hasClientSecret: true });
    const login = (user: TestUser) =>
      h.request('POST', '/api/auth/login', { body: { email: user.email, password: user.password } });

    // Invited, never signed in through the provider: an owner cannot take a password away by inviting.
    expect((await login(carol)).status).toBe(200);
    // Once Carol links her account (from her own session), the provider vouches for her: SSO only.
    const browser = ssoBrowser(h, PUBLIC);
    browser.cookies.set('verdict_session', carol.cookie);
    expect((await signIn(browser, 'carol@acme.test')).answer.status).toBe(303);
    const refused = expectError(await login(carol), 'FORBIDDEN');
    expect(refused.message).toContain(`${PUBLIC}/api/auth/sso/acme`);
    expect((await login(dave)).status).toBe(200);
    expect((await login(owner)).status).toBe(200);
    const breakGlass = (await trail(workspace.id)).filter((e) => e.action === 'session.break_glass');
    expect(breakGlass).toHaveLength(1);
    expect(breakGlass[0]).toMatchObject({
      actor_id: owner.session.user.id,
      target_id: owner.session.user.id,
    });

    // Turned off again, Carol's password works.
    await configure(workspace.id, {
      protocol: 'oidc',
      issuer: issuer.url,
      clientId: 'verdict',
      allowedDomains: ['acme.test'],
    });
    expect((await login(carol)).status).toBe(200);
  });

  it('deprovisions through the API at once: out of the workspace, its sessions ended; idempotent', async () => {
    const { browser } = await signIn();
    const key = await createKey(h, owner);
    const deprovision = () =>
      h.request('POST', `/api/workspaces/${workspace.id}/sso/deprovision`, {
        key: key.key,
        body: { email: 'ADA@acme.test' },
      });
    const first = await deprovision();
    expect(first.status, first.text).toBe(200);
    expect(first.json).toMatchObject({ removedFromWorkspace: true });
    expect((first.json as { sessionsEnded: number }).sessionsEnded).toBeGreaterThanOrEqual(1);
    expect((await h.request('GET', '/api/auth/session', { cookie: browser.session() })).status).toBe(401);
    expect((await deprovision()).json).toMatchObject({ removedFromWorkspace: false, sessionsEnded: 0 });
    expect((await trail(workspace.id)).filter((e) => e.action === 'sso.deprovision')).toHaveLength(1);
    const owners = await h.request('POST', `/api/workspaces/${workspace.id}/sso/deprovision`, {
      ...as(owner),
      body: { email: owner.email },
    });
    expectError(owners, 'FORBIDDEN');
  });

  it("ends the sessions a workspace's sign-in opened when the member is removed, and only those", async () => {
    const { browser } = await signIn();
    const ada = await h.request<{ user: { id: string } }>('GET', '/api/auth/session', {
      cookie: browser.session(),
    });
    const removed = await h.request(
      'DELETE',
      `/api/workspaces/${workspace.id}/members/${ada.json.user.id}`,
      as(owner),
    );
    expect(removed.status).toBe(204);
    expect((await h.request('GET', '/api/auth/session', { cookie: browser.session() })).status).toBe(401);
    expect((await h.request('GET', '/api/auth/session', as(owner))).status).toBe(200);
  });

  it('lets admins read the connection, only the owner change it, and needs Enterprise', async () => {
    const admin = await registerUser(h, { email: 'admin@acme.test' });
    const member = await registerUser(h, { email: 'member@acme.test' });
    for (const [user, role] of [
      [admin, 'admin'],
      [member, 'member'],
    ] as const) {
      await h.request('POST', `/api/workspaces/${workspace.id}/members`, {
        ...as(owner),
        body: { email: user.email, role },
      });
    }
    expect((await h.request('GET', `/api/workspaces/${workspace.id}/sso`, as(admin))).status).toBe(200);
    expectError(await h.request('GET', `/api/workspaces/${workspace.id}/sso`, as(member)), 'FORBIDDEN');
    expectError(
      await configure(
        workspace.id,
        { protocol: 'oidc', issuer: issuer.url, clientId: 'x', allowedDomains: ['acme.test'] },
        admin,
      ),
      'FORBIDDEN',
    );
    expectError(await h.request('DELETE', `/api/workspaces/${workspace.id}/sso`, as(admin)), 'FORBIDDEN');

    await h.core.accounts.setPlan(owner.session.user.id, 'byok_pro');
    const gated = expectError(
      await h.request('GET', `/api/workspaces/${workspace.id}/sso`, as(owner)),
      'BYOK_REQUIRED',
      {
        extras: ['requiredPlan', 'upgradeUrl'],
      },
    );
    expect(gated).toMatchObject({ requiredPlan: 'enterprise' });
    refusedWith(await ssoBrowser(h, PUBLIC).get('/api/auth/sso/acme'), 'not_configured');
    // Removing it is allowed whatever the plan.
    expect((await h.request('DELETE', `/api/workspaces/${workspace.id}/sso`, as(owner))).status).toBe(204);
    await h.core.accounts.setPlan(owner.session.user.id, 'enterprise');
    expect((await h.request('GET', `/api/workspaces/${workspace.id}/sso`, as(owner))).status).toBe(404);
    expect((await trail(workspace.id)).some((e) => e.action === 'sso_connection.delete')).toBe(true);
  });
});
