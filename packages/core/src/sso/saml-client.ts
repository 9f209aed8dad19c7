import type { CacheProvider, SAML } from '@node-saml/node-saml';
import type { StoredConnection } from './connection-record.ts';
import { serviceProviderOf } from './service-provider.ts';

const EMAIL_NAME_ID = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';

/**
 * The sign-in requests node-saml checks `InResponseTo` against: just the one this answer's RelayState
 * named, already used from the database (sign-in-requests.ts, which checked its expiry), so the library's
 * own check agrees with ours and nothing is kept in a process's memory (any API process may receive the
 * answer). Its value is when the request was made, as node-saml reads it: now, for the window just checked.
 */
const onlyRequest = (requestId: string | null): CacheProvider => ({
  saveAsync: async (_key, value) => ({ value, createdAt: Date.now() }),
  getAsync: async (key) => (key === requestId ? new Date().toISOString() : null),
  removeAsync: async (key) => key,
});

/**
 * node-saml (with xml-crypto and xml2js), loaded at the first SAML sign-in: most processes never run one,
 * and every API start would pay for its modules.
 */
export const loadSaml = () => import('@node-saml/node-saml');

/**
 * node-saml for a workspace's SAML connection: assertions must be signed by the provider's certificate,
 * name this workspace's entity id as their audience, answer the request this sign-in made, and be within
 * their time window (a minute of clock skew allowed).
 */
export async function samlClient(
  publicBaseUrl: string,
  slug: string,
  connection: StoredConnection,
  requestId: { existing: string } | { new: string },
): Promise<SAML> {
  const { SAML, ValidateInResponseTo } = await loadSaml();
  const sp = serviceProviderOf(publicBaseUrl, slug);
  const id = 'existing' in requestId ? requestId.existing : requestId.new;
  return new SAML({
    entryPoint: connection.sso_url ?? undefined,
    idpCert: connection.certificate ?? '',
    idpIssuer: connection.issuer,
    issuer: sp.entityId,
    audience: sp.entityId,
    callbackUrl: sp.acsUrl,
    identifierFormat: EMAIL_NAME_ID,
    wantAssertionsSigned: true,
    wantAuthnResponseSigned: false,
    validateInResponseTo: ValidateInResponseTo.always,
    cacheProvider: onlyRequest('existing' in requestId ? id : null),
    generateUniqueId: () => id,
    acceptedClockSkewMs: 60_000,
    disableRequestedAuthnContext: true,
  });
}
