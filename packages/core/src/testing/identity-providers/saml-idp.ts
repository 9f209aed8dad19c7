import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { inflateRawSync } from 'node:zlib';
import { signSamlPost } from '@node-saml/node-saml/lib/saml-post-signing.js';
import { autoPostPage, firstForm, loginPage, NO_SUCH_USER, pageError, readForm } from './login-page.ts';

/**
 * What a response gets wrong, if anything: `forged` is signed by a key the service does not trust,
 * `expired` was valid an hour ago (beyond any clock skew), `wrong-audience` is for another service
 * provider, `unsigned` carries no signature at all, `wrong-recipient` was issued for another ACS URL.
 */
export type SamlResponseDefect =
  | 'valid'
  | 'forged'
  | 'expired'
  | 'wrong-audience'
  | 'unsigned'
  | 'wrong-recipient';

/** A person the IdP knows, by NameID (their email). */
export type SamlUser = { email: string; name: string };

export type SamlResponseOptions = {
  /** The service provider's Assertion Consumer Service URL: Destination and Recipient. */
  acsUrl: string;
  /** The service provider's entity id. */
  audience: string;
  /** The AuthnRequest's ID this answers. */
  inResponseTo: string;
  email: string;
  name?: string;
  /** When the response is issued, in ms (default now). */
  now?: number;
  /** How long the assertion is valid (default 5 minutes). */
  validForMs?: number;
  defect?: SamlResponseDefect;
};

export type SamlIdpOptions = {
  /** The people who can sign in at start, by NameID (their email); `idp.users` changes them later. */
  users?: Record<string, SamlUser>;
};

/** What a browser posts to the service after signing in: the ACS URL and the form's two fields. */
export type SamlPost = { acsUrl: string; SAMLResponse: string; RelayState: string };

export type SamlIdp = {
  entityId: string;
  /** The single sign-on endpoint, HTTP-Redirect binding. */
  ssoUrl: string;
  /** The signing certificate (PEM) the service trusts. */
  certificate: string;
  /** The IdP's metadata: an EntityDescriptor with the signing certificate and the SSO URL. */
  metadataXml: string;
  /** Who can sign in, by NameID: set and delete at any time (a deleted user is refused at the form). */
  users: Map<string, SamlUser>;
  /** A base64 `SAMLResponse` as this IdP issues it, with the defect asked for. */
  response: (options: SamlResponseOptions) => string;
  /**
   * Signs `email` in as a browser would, from the service's redirect to the SSO URL: it submits the login
   * form and returns what the next page would post to the ACS URL, without posting it. Throws "No such
   * user" when the form refuses the email.
   */
  signIn: (authorizeUrl: string, email: string) => Promise<SamlPost>;
  close: () => Promise<void>;
};

const NS = {
  protocol: 'urn:oasis:names:tc:SAML:2.0:protocol',
  assertion: 'urn:oasis:names:tc:SAML:2.0:assertion',
  metadata: 'urn:oasis:names:tc:SAML:2.0:metadata',
  dsig: 'http://www.w3.org/2000/09/xmldsig#',
};
const EMAIL_FORMAT = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';
const ASSERTION_XPATH =
  "/*[local-name(.)='Response' and namespace-uri(.)='urn:oasis:names:tc:SAML:2.0:protocol']" +
  "/*[local-name(.)='Assertion' and namespace-uri(.)='urn:oasis:names:tc:SAML:2.0:assertion']";
const HOUR = 3_600_000;

const xmlText = (text: string) =>
  text.replace(/[&<>"']/g, (c) => `&${{ '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot', "'": 'apos' }[c]};`);
const xmlUnescape = (text: string) =>
  text.replace(/&(amp|lt|gt|quot|apos);/g, (_, name: string) => {
    const chars: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
    return chars[name] ?? '';
  });
const instant = (ms: number) => new Date(ms).toISOString();
const newId = () => `_${randomBytes(16).toString('hex')}`;

/** A key pair and self-signed certificate, made by Debian's openssl (Node makes keys but no certificates). */
async function selfSigned(dir: string, name: string): Promise<{ key: string; certificate: string }> {
  const key = join(dir, `${name}.key`);
  const cert = join(dir, `${name}.crt`);
  await promisify(execFile)('openssl', [
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-sha256',
    '-days',
    '2',
    '-subj',
    `/CN=${name}`,
    '-keyout',
    key,
    '-out',
    cert,
  ]);
  return { key: await readFile(key, 'utf8'), certificate: await readFile(cert, 'utf8') };
}

/**
 * The fields of an AuthnRequest the IdP answers with: its ID (InResponseTo), the ACS URL to post to, and
 * the service provider's entity id (the audience). Read with patterns, not an XML parser: the requests
 * come from node-saml, whose shape is known, and a wrong one fails the sign-in loudly.
 */
function readAuthnRequest(samlRequest: string) {
  const xml = inflateRawSync(Buffer.from(samlRequest, 'base64')).toString('utf8');
  const root = /<(?:\w+:)?AuthnRequest\b([^>]*)>/.exec(xml)?.[1] ?? '';
  const attribute = (name: string) => {
    const value = new RegExp(`\\b${name}="([^"]*)"`).exec(root)?.[1];
    return value === undefined ? undefined : xmlUnescape(value);
  };
  const issuer = /<(?:\w+:)?Issuer\b[^>]*>([^<]*)<\//.exec(xml)?.[1];
  const id = attribute('ID');
  const acsUrl = attribute('AssertionConsumerServiceURL');
  if (!id || !acsUrl || !issuer)
    throw new Error('not an AuthnRequest with ID, AssertionConsumerServiceURL and Issuer');
  return { id, acsUrl, issuer: xmlUnescape(issuer) };
}

/**
 * A SAML 2.0 identity provider for the single sign-on tests, signing as real IdPs do (node-saml's own
 * signing, xml-crypto underneath: RSA-SHA256, exclusive c14n, an enveloped signature in the Assertion
 * after its Issuer). It answers AuthnRequests (HTTP-Redirect binding) with a login page and then a page
 * that posts the response to the ACS URL (HTTP-POST binding); `response` makes one directly, valid or with
 * the defect a refusal test needs.
 */
export async function startSamlIdp(options: SamlIdpOptions = {}): Promise<SamlIdp> {
  const dir = await mkdtemp(join(tmpdir(), 'verdict-saml-idp-'));
  const [signer, forger] = await Promise.all([
    selfSigned(dir, 'verdict-test-idp'),
    selfSigned(dir, 'verdict-test-forger'),
  ]).finally(() => rm(dir, { recursive: true, force: true }));
  const users = new Map(Object.entries(options.users ?? {}));
  const userOf = (email: string) => {
    const wanted = email.trim().toLowerCase();
    return [...users].find(
      ([nameId, user]) => nameId.toLowerCase() === wanted || user.email.toLowerCase() === wanted,
    );
  };
  /** AuthnRequests waiting for their login form, by the id the form carries. */
  const pending = new Map<string, { id: string; acsUrl: string; issuer: string; relayState: string }>();

  const response = (o: SamlResponseOptions): string => {
    const defect = o.defect ?? 'valid';
    const issued = (o.now ?? Date.now()) - (defect === 'expired' ? 2 * HOUR : 0);
    const until = issued + (defect === 'expired' ? HOUR : (o.validForMs ?? 5 * 60_000));
    const recipient = defect === 'wrong-recipient' ? 'https://another-service.invalid/saml/acs' : o.acsUrl;
    const audience = defect === 'wrong-audience' ? 'urn:verdict-test:another-service' : o.audience;
    const attribute = (name: string, value: string) =>
      `<saml:Attribute Name="${name}" NameFormat="urn:oasis:names:tc:SAML:2.0:attrname-format:basic">` +
      `<saml:AttributeValue>${xmlText(value)}</saml:AttributeValue></saml:Attribute>`;
    const assertion =
      `<saml:Assertion xmlns:saml="${NS.assertion}" ID="${newId()}" Version="2.0" IssueInstant="${instant(issued)}">` +
      `<saml:Issuer>${xmlText(entityId)}</saml:Issuer>` +
      `<saml:Subject><saml:NameID Format="${EMAIL_FORMAT}">${xmlText(o.email)}</saml:NameID>` +
      `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer">` +
      `<saml:SubjectConfirmationData InResponseTo="${xmlText(o.inResponseTo)}" NotOnOrAfter="${instant(until)}"` +
      ` Recipient="${xmlText(recipient)}"/></saml:SubjectConfirmation></saml:Subject>` +
      `<saml:Conditions NotBefore="${instant(issued)}" NotOnOrAfter="${instant(until)}">` +
      `<saml:AudienceRestriction><saml:Audience>${xmlText(audience)}</saml:Audience></saml:AudienceRestriction>` +
      `</saml:Conditions>` +
      `<saml:AuthnStatement AuthnInstant="${instant(issued)}" SessionIndex="${newId()}"><saml:AuthnContext>` +
      `<saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef>` +
      `</saml:AuthnContext></saml:AuthnStatement>` +
      `<saml:AttributeStatement>${attribute('email', o.email)}${attribute('name', o.name ?? o.email)}</saml:AttributeStatement>` +
      `</saml:Assertion>`;
    const xml =
      `<samlp:Response xmlns:samlp="${NS.protocol}" xmlns:saml="${NS.assertion}" ID="${newId()}" Version="2.0"` +
      ` IssueInstant="${instant(issued)}" Destination="${xmlText(recipient)}" InResponseTo="${xmlText(o.inResponseTo)}">` +
      `<saml:Issuer>${xmlText(entityId)}</saml:Issuer>` +
      `<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>` +
      `${assertion}</samlp:Response>`;
    if (defect === 'unsigned') return Buffer.from(xml).toString('base64');
    const keys = defect === 'forged' ? forger : signer;
    const signed = signSamlPost(xml, ASSERTION_XPATH, {
      privateKey: keys.key,
      publicCert: keys.certificate,
      signatureAlgorithm: 'sha256',
      digestAlgorithm: 'sha256',
    });
    return Buffer.from(signed).toString('base64');
  };

  const html = (res: ServerResponse, body: string) =>
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(body);
  const form = (res: ServerResponse, key: string, email?: string, error?: string) =>
    html(
      res,
      loginPage({
        title: 'Sign in to the test IdP',
        action: '/sso/login',
        hidden: { request: key },
        email,
        error,
      }),
    );

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const at = new URL(req.url ?? '/', base);
    if (req.method === 'GET' && at.pathname === '/metadata') {
      return void res.writeHead(200, { 'content-type': 'application/samlmetadata+xml' }).end(metadataXml);
    }
    if (req.method === 'GET' && at.pathname === '/sso') {
      const request = readAuthnRequest(at.searchParams.get('SAMLRequest') ?? '');
      const key = randomBytes(12).toString('hex');
      pending.set(key, { ...request, relayState: at.searchParams.get('RelayState') ?? '' });
      return form(res, key);
    }
    if (req.method === 'POST' && at.pathname === '/sso/login') {
      const fields = await readForm(req);
      const key = fields.get('request') ?? '';
      const request = pending.get(key);
      if (!request) return void res.writeHead(400, { 'content-type': 'text/plain' }).end('unknown request');
      const email = fields.get('email') ?? '';
      const found = userOf(email);
      if (!found) return form(res, key, email, NO_SUCH_USER);
      pending.delete(key);
      const [nameId, user] = found;
      const SAMLResponse = response({
        acsUrl: request.acsUrl,
        audience: request.issuer,
        inResponseTo: request.id,
        email: nameId,
        name: user.name,
      });
      return html(res, autoPostPage(request.acsUrl, { SAMLResponse, RelayState: request.relayState }));
    }
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: Error) => {
      if (!res.headersSent) res.writeHead(400, { 'content-type': 'text/plain' }).end(err.message);
    });
  });
  const port = await new Promise<number>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
  );
  const base = `http://127.0.0.1:${port}`;
  const entityId = `${base}/metadata`;
  const ssoUrl = `${base}/sso`;
  const certificateBody = signer.certificate.replace(/-----[^-]+-----|\s/g, '');
  const metadataXml =
    `<md:EntityDescriptor xmlns:md="${NS.metadata}" xmlns:ds="${NS.dsig}" entityID="${xmlText(entityId)}">` +
    `<md:IDPSSODescriptor WantAuthnRequestsSigned="false" protocolSupportEnumeration="${NS.protocol}">` +
    `<md:KeyDescriptor use="signing"><ds:KeyInfo><ds:X509Data><ds:X509Certificate>${certificateBody}` +
    `</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>` +
    `<md:NameIDFormat>${EMAIL_FORMAT}</md:NameIDFormat>` +
    `<md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${xmlText(ssoUrl)}"/>` +
    `</md:IDPSSODescriptor></md:EntityDescriptor>`;

  return {
    entityId,
    ssoUrl,
    certificate: signer.certificate,
    metadataXml,
    users,
    response,
    signIn: async (authorizeUrl, email) => {
      const page = await fetch(authorizeUrl, { redirect: 'manual' });
      const login = firstForm(await page.text());
      if (page.status !== 200 || !login) throw new Error(`no login form at the IdP (${page.status})`);
      const answer = await fetch(new URL(login.action, authorizeUrl), {
        method: 'POST',
        body: new URLSearchParams({ ...login.fields, email }),
        redirect: 'manual',
      });
      const text = await answer.text();
      const refused = pageError(text);
      if (refused) throw new Error(`${refused}: ${email}`);
      const post = firstForm(text);
      if (answer.status !== 200 || !post?.fields.SAMLResponse) {
        throw new Error(`no response posted by the IdP (${answer.status}): ${text.slice(0, 200)}`);
      }
      return {
        acsUrl: post.action,
        SAMLResponse: post.fields.SAMLResponse,
        RelayState: post.fields.RelayState ?? '',
      };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
