import { SSO_REFUSALS } from '@verdict/contracts';
import { type OidcIssuer, type SamlIdp, startOidcIssuer, startSamlIdp } from '@verdict/core/testing';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, apiClient, expectBody, registerUser } from './support/api-client.ts';
import { checkPage, launchBrowser, watchPage } from './support/browser.ts';
import { fieldIssueOf, sessionOf, setField, until, visible } from './support/console-pages.ts';
import { MODES, type Stack, stackAddress, startStack } from './support/stack.ts';

const CLIENT_ID = 'verdict-console';
const CLIENT_SECRET = 'the-client-secret-the-issuer-gave';

/** The two workspaces' people, as their providers know them. */
const ADA = { email: 'ada@acme.test', name: 'Ada Lovelace' };
const EVE = { email: 'eve@elsewhere.test', name: 'Eve Outsider' };
const GRACE = { email: 'grace@globex.test', name: 'Grace Hopper' };

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

// Single sign-on as people meet it, in chromium against the running service in each mode: the owner sets it
// up in the console, and people new to the service sign in through a real OIDC issuer's and a SAML IdP's
// own login pages, coming back to the console signed in and members of the workspace, or told why not.
describe.each(MODES)('single sign-on in the console (%s)', (mode) => {
  let stack: Stack;
  let issuer: OidcIssuer;
  let idp: SamlIdp;
  let owner: { email: string; cookie: string; client: ApiClient };
  const workspaces = { acme: { id: '', slug: 'acme-research' }, globex: { id: '', slug: 'globex-labs' } };
  const contexts: BrowserContext[] = [];

  /** A browser of its own (its own cookies), on `path` of the console, watched for page errors. */
  const open = async (path: string, cookie?: string) => {
    const context = await browser.newContext();
    contexts.push(context);
    if (cookie) {
      const at = cookie.indexOf('=');
      await context.addCookies([
        { name: cookie.slice(0, at), value: cookie.slice(at + 1), url: stack.baseUrl },
      ]);
    }
    const watched = await watchPage(context);
    await watched.page.goto(`${stack.baseUrl}${path}`);
    return { ...watched, context, check: (name: string) => checkPage(watched, mode, name) };
  };

  /** From the console's sign-in page to the provider's login page, as `email`, and back to the console. */
  const signInThroughProvider = async (page: Page, slug: string, email: string, provider: string) => {
    await visible(page.getByRole('heading', { name: 'Single sign-on' }));
    await page.getByLabel('Workspace').fill(slug);
    await page.getByRole('button', { name: 'Sign in with single sign-on' }).click();
    await page.waitForURL((url) => url.origin === provider);
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((url) => url.origin === stack.baseUrl);
  };

  const membersOf = async (workspaceId: string) =>
    expectBody(
      await owner.client.GET('/api/workspaces/{id}/members', { params: { path: { id: workspaceId } } }),
      200,
    ).members;

  beforeAll(async () => {
    // The providers are told this service's addresses before it starts, as an operator registers them.
    const address = await stackAddress();
    const callback = `${address.baseUrl}/api/auth/sso/${workspaces.acme.slug}/oidc/callback`;
    [stack, issuer, idp] = await Promise.all([
      startStack(mode, 'sso', {
        ...address.env,
        SSO_SECRET_KEY: 'a-key-of-this-deployment-for-client-secrets',
        SSO_ALLOW_HTTP: 'true',
        SSO_ALLOW_PRIVATE: 'true',
      }),
      startOidcIssuer({
        clients: [{ client_id: CLIENT_ID, client_secret: CLIENT_SECRET, redirect_uris: [callback] }],
        users: {
          'sub-ada': { ...ADA, emailVerified: true },
          'sub-eve': { ...EVE, emailVerified: true },
        },
      }),
      startSamlIdp({ users: { [GRACE.email]: GRACE } }),
    ]);
    expect(stack.baseUrl).toBe(address.baseUrl);
    const registered = await registerUser(stack.baseUrl, `sso-owner-${mode}`);
    await stack.setPlan(registered.email, 'enterprise');
    owner = { ...registered, client: apiClient(stack.baseUrl, { cookie: registered.cookie }) };
    for (const [name, workspace] of Object.entries(workspaces)) {
      const created = await owner.client.POST('/api/workspaces', {
        body: { name: `${name[0]?.toUpperCase()}${name.slice(1)}`, slug: workspace.slug },
      });
      workspace.id = expectBody(created, 201).id;
    }
  });
  afterAll(async () => {
    await Promise.all(contexts.map((context) => context.close()));
    await Promise.all([stack?.stop(), issuer?.close(), idp?.close()]);
  });

  it('is set up by the owner in the console, which shows what to register at the provider and never the secret', async () => {
    const settings = await open(`/workspaces?workspace=${workspaces.acme.id}`, owner.cookie);
    const { page } = settings;
    const panel = page.getByRole('region', { name: 'Single sign-on' });
    await visible(panel.getByText('Not set up.'));
    await settings.check('sso-not-set-up');

    await setField(panel.getByLabel('Protocol'), 'oidc');
    await panel.getByLabel('Issuer').fill(issuer.url);
    await panel.getByLabel('Client ID').fill(CLIENT_ID);
    await panel.getByLabel('Client secret').fill(CLIENT_SECRET);
    // A domain out of its format is refused at its field, before anything is sent.
    const domains = panel.getByLabel('Allowed domains');
    await domains.fill('acme.test, not a domain');
    await panel.getByRole('button', { name: 'Set up single sign-on' }).click();
    await until(
      () => fieldIssueOf(domains),
      (text) => /domain such as example\.com/.test(text),
      'the allowed domains’ issue',
    );
    await domains.fill('ACME.test');
    await setField(panel.getByLabel('Default role'), 'member');
    await panel.getByRole('button', { name: 'Set up single sign-on' }).click();

    const details = panel.getByLabel('Single sign-on connection');
    await visible(details);
    const shown = async (list: typeof details, term: string) =>
      (await list.locator(`dt:text-is("${term}") + dd`).textContent()) ?? '';
    expect(await shown(details, 'Protocol')).toBe('OpenID Connect (OIDC)');
    expect(await shown(details, 'Issuer')).toBe(issuer.url);
    expect(await shown(details, 'Client ID')).toBe(CLIENT_ID);
    expect(await shown(details, 'Client secret')).toBe('Set (stored encrypted)');
    expect(await shown(details, 'Allowed domains')).toBe('acme.test');
    const provider = panel.getByLabel('This service at your identity provider');
    const redirectUri = `${stack.baseUrl}/api/auth/sso/${workspaces.acme.slug}/oidc/callback`;
    expect(await shown(provider, 'Redirect URI (OIDC)')).toBe(redirectUri);
    expect(await shown(provider, 'Sign-in URL')).toBe(
      `${stack.baseUrl}/api/auth/sso/${workspaces.acme.slug}`,
    );
    expect(await page.content()).not.toContain(CLIENT_SECRET);
    await settings.check('sso-oidc');

    // What the console saved is what the API holds.
    const saved = expectBody(
      await owner.client.GET('/api/workspaces/{id}/sso', { params: { path: { id: workspaces.acme.id } } }),
      200,
    );
    expect(saved).toMatchObject({
      protocol: 'oidc',
      issuer: issuer.url,
      clientId: CLIENT_ID,
      hasClientSecret: true,
      allowedDomains: ['acme.test'],
      defaultRole: 'member',
      requireSso: false,
      serviceProvider: { redirectUri },
    });
  });

  it('signs someone new in through the OIDC issuer’s own page, back to the page they asked for, as a member', async () => {
    const person = await open('/workspaces');
    const { page } = person;
    // Signed out, the page asked for sends them to sign in, and single sign-on brings them back to it.
    await page.waitForURL(/\/sign-in\?next=%2Fworkspaces$/);
    await person.check('sso-sign-in');
    await signInThroughProvider(page, workspaces.acme.slug, ADA.email, issuer.url);
    await visible(page.getByRole('heading', { name: 'Workspaces', level: 1 }));
    expect(new URL(page.url()).pathname).toBe('/workspaces');
    await visible(page.locator('.site-header .account').getByText(ADA.name));
    const row = page.getByRole('row', { name: /Acme/ });
    await visible(row);
    expect(await row.getByRole('cell').nth(1).textContent()).toBe('Member');
    // The page is the console's own, checked elsewhere: here, only that landing on it went without an error.
    expect(person.problems).toEqual([]);

    const me = expectBody(
      await (await sessionOf(person.context, stack.baseUrl)).GET('/api/auth/session'),
      200,
    );
    expect(me.user).toMatchObject({ email: ADA.email, name: ADA.name });
    expect(await membersOf(workspaces.acme.id)).toContainEqual(
      expect.objectContaining({ email: ADA.email, name: ADA.name, role: 'member' }),
    );
  });

  it('signs someone new in through the SAML IdP’s own page, which posts its answer back', async () => {
    const configured = await owner.client.PUT('/api/workspaces/{id}/sso', {
      params: { path: { id: workspaces.globex.id } },
      body: {
        protocol: 'saml',
        metadataXml: idp.metadataXml,
        allowedDomains: ['globex.test'],
        defaultRole: 'viewer',
      },
    });
    expect(expectBody(configured, 200)).toMatchObject({ protocol: 'saml', issuer: idp.entityId });

    const person = await open('/sign-in');
    await signInThroughProvider(person.page, workspaces.globex.slug, GRACE.email, new URL(idp.ssoUrl).origin);
    await visible(person.page.getByRole('heading', { name: 'Debates', level: 1 }));
    expect(new URL(person.page.url()).pathname).toBe('/');
    await visible(person.page.locator('.site-header .account').getByText(GRACE.name));
    expect(await membersOf(workspaces.globex.id)).toContainEqual(
      expect.objectContaining({ email: GRACE.email, role: 'viewer' }),
    );

    // The owner's console shows the SAML connection with the certificate's fingerprint, not the certificate.
    const settings = await open(`/workspaces?workspace=${workspaces.globex.id}`, owner.cookie);
    const panel = settings.page.getByRole('region', { name: 'Single sign-on' });
    const details = panel.getByLabel('Single sign-on connection');
    await visible(details);
    expect(await details.textContent()).toMatch(
      /Certificate fingerprint \(SHA-256\)([0-9A-F]{2}:){31}[0-9A-F]{2}/,
    );
    // A change that gives no provider keeps the stored one (the certificate is never shown): only the role
    // changes here, and the fingerprint stays.
    const fingerprint = (await details.textContent())?.match(/([0-9A-F]{2}:){31}[0-9A-F]{2}/)?.[0];
    await panel.getByRole('button', { name: 'Change single sign-on' }).click();
    await panel.getByLabel('Default role').selectOption('member');
    await panel.getByRole('button', { name: 'Save changes' }).click();
    await until(
      async () => (await details.textContent()) ?? '',
      (text) => /Default rolemember/i.test(text) && text.includes(fingerprint ?? '-'),
      'the changed role beside the same fingerprint',
    );
    const stored = await apiClient(stack.baseUrl, { cookie: owner.cookie }).GET('/api/workspaces/{id}/sso', {
      params: { path: { id: workspaces.globex.id } },
    });
    expect(expectBody(stored, 200)).toMatchObject({ defaultRole: 'member', issuer: idp.entityId });
    await settings.check('sso-saml-changed');
  });

  it('sends someone the provider signs in for another domain back to the sign-in page, saying why', async () => {
    const person = await open('/sign-in');
    await signInThroughProvider(person.page, workspaces.acme.slug, EVE.email, issuer.url);
    await person.page.waitForURL(/\/sign-in\?sso_error=domain_not_allowed$/);
    const alert = person.page.getByRole('alert');
    await visible(alert);
    expect(await alert.textContent()).toBe(SSO_REFUSALS.domain_not_allowed);
    await person.check('sso-refused');
    expect(await person.context.cookies(stack.baseUrl)).not.toContainEqual(
      expect.objectContaining({ name: 'verdict_session' }),
    );
    expect((await membersOf(workspaces.acme.id)).map((m) => m.email)).not.toContain(EVE.email);
  });

  it('is changed by the owner in the console keeping the stored secret, then turned off: a sign-in through it is refused', async () => {
    const settings = await open(`/workspaces?workspace=${workspaces.acme.id}`, owner.cookie);
    const panel = settings.page.getByRole('region', { name: 'Single sign-on' });
    await panel.getByRole('button', { name: 'Change single sign-on' }).click();
    expect(await panel.getByLabel('Issuer').inputValue()).toBe(issuer.url);
    expect(await panel.getByLabel('Client secret').inputValue()).toBe('');
    await panel.getByLabel('Require single sign-on').check();
    await panel.getByRole('button', { name: 'Save changes' }).click();
    const required = panel
      .getByLabel('Single sign-on connection')
      .locator('dt:text-is("Single sign-on required") + dd');
    await until(
      () => required.textContent(),
      (text) => text?.startsWith('Yes') === true,
      'the connection shown as required',
    );
    expect(
      expectBody(
        await owner.client.GET('/api/workspaces/{id}/sso', { params: { path: { id: workspaces.acme.id } } }),
        200,
      ),
    ).toMatchObject({ requireSso: true, hasClientSecret: true });

    await panel.getByRole('button', { name: 'Turn off' }).click();
    await panel.getByRole('button', { name: 'Yes, turn it off' }).click();
    await visible(panel.getByText('Not set up.'));

    const person = await open('/sign-in');
    await person.page.getByLabel('Workspace').fill(workspaces.acme.slug);
    await person.page.getByRole('button', { name: 'Sign in with single sign-on' }).click();
    await person.page.waitForURL(/\/sign-in\?sso_error=not_configured$/);
    expect(await person.page.getByRole('alert').textContent()).toBe(SSO_REFUSALS.not_configured);
  });
});
