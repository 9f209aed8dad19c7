import type { SsoConnection, Workspace } from '@verdict/contracts';
import { auditTrailOf, type SamlIdp, type SamlResponseDefect, startSamlIdp } from '@verdict/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectError,
  type Harness,
  registerUser,
  startServer,
  type TestUser,
} from '../../testing/http-harness.ts';
import { ssoBrowser } from '../../testing/sso-browser.ts';

/** Where the provider posts people back: the harness listens elsewhere, and the browser maps one to the other. */
const PUBLIC = 'http://verdict.sso.test';

describe('single sign-on through a SAML provider, over HTTP', () => {
  let h: Harness;
  let idp: SamlIdp;
  let owner: TestUser;
  let workspace: Workspace;
  let connection: SsoConnection;
  const as = (user: { cookie: string }) => ({ cookie: user.cookie });
  const idpOrigin = () => new URL(idp.ssoUrl).origin;

  beforeAll(async () => {
    // No SSO_SECRET_KEY: SAML stores no secret.
    h = await startServer({ env: { PUBLIC_BASE_URL: PUBLIC, APP_URL: PUBLIC } });
    owner = await registerUser(h, { email: 'owner@globex.test' });
    await h.core.accounts.setPlan(owner.session.user.id, 'enterprise');
    const created = await h.request<Workspace>('POST', '/api/workspaces', {
      ...as(owner),
      body: { name: 'Globex', slug: 'globex' },
    });
    workspace = created.json;
    idp = await startSamlIdp({
      users: {
        'hank@globex.test': { email: 'hank@globex.test', name: 'Hank Scorpio' },
        'mallory@elsewhere.test': { email: 'mallory@elsewhere.test', name: 'Mallory' },
      },
    });
  }, 60_000);
  afterAll(async () => {
    await idp?.close();
    await h?.close();
  });

  const refusedWith = (answer: { status: number; location: string }, reason: string) => {
    expect(answer.status).toBe(303);
    expect(answer.location).toBe(`${PUBLIC}/sign-in?sso_error=${reason}`);
  };
  const reasons = async () =>
    (await auditTrailOf(h.core.db, { workspaceId: workspace.id }))
      .filter((entry) => entry.action === 'sso.sign_in_refused')
      .map((entry) => (entry.changes.reason as { after: string }).after);

  it("is set up from the provider's metadata, and refuses metadata or a certificate it cannot read", async () => {
    const bad = await h.request('PUT', `/api/workspaces/${workspace.id}/sso`, {
      ...as(owner),
      body: { protocol: 'saml', metadataXml: '<html>not metadata</html>', allowedDomains: ['globex.test'] },
    });
    expect(expectError(bad, 'VALIDATION_ERROR').details?.[0]).toMatchObject({ path: 'metadataXml' });
    const badCertificate = await h.request('PUT', `/api/workspaces/${workspace.id}/sso`, {
      ...as(owner),
      body: {
        protocol: 'saml',
        entityId: idp.entityId,
        ssoUrl: idp.ssoUrl,
        certificate: 'not a certificate',
        allowedDomains: ['globex.test'],
      },
    });
    expect(expectError(badCertificate, 'VALIDATION_ERROR').details?.[0]).toMatchObject({
      path: 'certificate',
    });
    const mixed = await h.request('PUT', `/api/workspaces/${workspace.id}/sso`, {
      ...as(owner),
      body: {
        protocol: 'saml',
        metadataXml: idp.metadataXml,
        clientId: 'x',
        allowedDomains: ['globex.test'],
      },
    });
    expect(expectError(mixed, 'VALIDATION_ERROR').details?.map((d) => d.path)).toEqual(['clientId']);

    const res = await h.request<SsoConnection>('PUT', `/api/workspaces/${workspace.id}/sso`, {
      ...as(owner),
      body: {
        protocol: 'saml',
        metadataXml: idp.metadataXml,
        allowedDomains: ['globex.test'],
        defaultRole: 'viewer',
      },
    });
    expect(res.status, res.text).toBe(200);
    connection = res.json;
    expect(connection).toMatchObject({
      protocol: 'saml',
      issuer: idp.entityId,
      ssoUrl: idp.ssoUrl,
      hasClientSecret: false,
      clientId: null,
      defaultRole: 'viewer',
    });
    expect(connection.certificateFingerprint).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
    // A change that gives no provider keeps the stored one.
    const changed = await h.request<SsoConnection>('PUT', `/api/workspaces/${workspace.id}/sso`, {
      ...as(owner),
      body: { protocol: 'saml', allowedDomains: ['globex.test', 'globex.example'], defaultRole: 'viewer' },
    });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.json).toMatchObject({
      issuer: idp.entityId,
      ssoUrl: idp.ssoUrl,
      certificateFingerprint: connection.certificateFingerprint,
      allowedDomains: ['globex.test', 'globex.example'],
    });
    const metadata = await fetch(`${h.baseUrl}/api/auth/sso/globex/saml/metadata`);
    expect(metadata.status).toBe(200);
    expect(metadata.headers.get('content-type')).toMatch(/^application\/samlmetadata\+xml/);
    const xml = await metadata.text();
    expect(xml).toContain(`entityID="${connection.serviceProvider.entityId}"`);
    expect(xml).toContain(`Location="${connection.serviceProvider.acsUrl}"`);
    expect((await fetch(`${h.baseUrl}/api/auth/sso/no-such/saml/metadata`)).status).toBe(404);
  });

  it('signs someone in through the posted assertion (from the provider’s site), just in time, as a viewer', async () => {
    const browser = ssoBrowser(h, PUBLIC);
    const started = await browser.get('/api/auth/sso/globex?returnTo=/workspaces');
    expect(started.status).toBe(302);
    expect(started.location.startsWith(`${idp.ssoUrl}?SAMLRequest=`)).toBe(true);
    const post = await idp.signIn(started.location, 'hank@globex.test');
    expect(post.acsUrl).toBe(connection.serviceProvider.acsUrl);
    const answer = await browser.postForm(post.acsUrl, post, idpOrigin());
    expect(answer).toMatchObject({ status: 303, location: `${PUBLIC}/workspaces` });
    const session = await h.request<{ user: { email: string; name: string } }>('GET', '/api/auth/session', {
      cookie: browser.session(),
    });
    expect(session.json.user).toMatchObject({ email: 'hank@globex.test', name: 'Hank Scorpio' });
    const members = await h.request<{ members: { email: string; role: string }[] }>(
      'GET',
      `/api/workspaces/${workspace.id}/members`,
      as(owner),
    );
    expect(members.json.members).toContainEqual(
      expect.objectContaining({ email: 'hank@globex.test', role: 'viewer' }),
    );

    // The same response posted again is a replay, whoever posts it.
    refusedWith(await browser.postForm(post.acsUrl, post, idpOrigin()), 'replayed');
    expect(await reasons()).toContain('replayed');
  });

  it.each<[SamlResponseDefect, string]>([
    ['forged', 'bad_signature'],
    ['unsigned', 'unsigned'],
    ['expired', 'expired'],
    ['wrong-audience', 'wrong_audience'],
    ['wrong-recipient', 'wrong_recipient'],
  ])('refuses a %s response (%s), signs no one in, and records why', async (defect, reason) => {
    const browser = ssoBrowser(h, PUBLIC);
    const started = await browser.get('/api/auth/sso/globex');
    const relayState = new URL(started.location).searchParams.get('RelayState') ?? '';
    const SAMLResponse = idp.response({
      acsUrl: connection.serviceProvider.acsUrl,
      audience: connection.serviceProvider.entityId,
      inResponseTo: relayState,
      email: `${defect}@globex.test`,
      defect,
    });
    refusedWith(
      await browser.postForm(
        connection.serviceProvider.acsUrl,
        { SAMLResponse, RelayState: relayState },
        idpOrigin(),
      ),
      reason,
    );
    expect(browser.session()).toBeUndefined();
    expect((await reasons()).at(-1)).toBe(reason);
    const users = await h.core.db.execute<{ n: number }>(
      'select count(*)::int as n from users where email = ?',
      [`${defect}@globex.test`],
    );
    expect(users[0]?.n).toBe(0);
  });

  it('refuses an answer to a sign-in never started, and an email outside the allowed domains', async () => {
    const browser = ssoBrowser(h, PUBLIC);
    const SAMLResponse = idp.response({
      acsUrl: connection.serviceProvider.acsUrl,
      audience: connection.serviceProvider.entityId,
      inResponseTo: '_never-asked',
      email: 'hank@globex.test',
    });
    refusedWith(
      await browser.postForm(
        connection.serviceProvider.acsUrl,
        { SAMLResponse, RelayState: '_never-asked' },
        idpOrigin(),
      ),
      'unknown_request',
    );
    const started = await browser.get('/api/auth/sso/globex');
    const post = await idp.signIn(started.location, 'mallory@elsewhere.test');
    refusedWith(await browser.postForm(post.acsUrl, post, idpOrigin()), 'domain_not_allowed');
  });
});
