import { X509Certificate } from 'node:crypto';
import { AppError } from '../shared/app-error.ts';
import { elementsNamed, localNameOf, parseXml, type XmlElement } from './xml-elements.ts';

/** What this service needs of a SAML provider: who it is, where to send people, and the key it signs with. */
export type SamlProviderTerms = { entityId: string; ssoUrl: string; certificate: string };

const REDIRECT_BINDING = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';

const invalid = (path: string, message: string) =>
  new AppError('VALIDATION_ERROR', message, { details: [{ path, code: 'custom', message }] });

/** A certificate as PEM, whether given as PEM or as its base64 body (as metadata carries it); 400 if it is none. */
export function certificatePem(text: string, path = 'certificate'): string {
  const body = text.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '');
  const pem = `-----BEGIN CERTIFICATE-----\n${body.match(/.{1,64}/g)?.join('\n') ?? ''}\n-----END CERTIFICATE-----\n`;
  try {
    new X509Certificate(pem);
  } catch {
    throw invalid(path, 'Not an X.509 certificate (PEM, or its base64 body)');
  }
  return pem;
}

/** SHA-256 fingerprint of a PEM certificate, as providers' consoles show it (hex pairs, colon-separated). */
export const fingerprintOf = (pem: string) => new X509Certificate(pem).fingerprint256;

/**
 * The provider's terms from its metadata (an EntityDescriptor: its entityID, the HTTP-Redirect
 * SingleSignOnService, the signing certificate of its IDPSSODescriptor), or from the fields given, or as
 * `stored` (an update that leaves them out); fields win over metadata, metadata over what is stored.
 * 400 VALIDATION_ERROR naming what is missing.
 */
export async function samlProviderTerms(
  input: {
    metadataXml?: string | undefined;
    entityId?: string | undefined;
    ssoUrl?: string | undefined;
    certificate?: string | undefined;
  },
  stored: Partial<SamlProviderTerms> = {},
): Promise<SamlProviderTerms> {
  const fromMetadata = input.metadataXml ? await readMetadata(input.metadataXml) : {};
  const entityId = input.entityId ?? fromMetadata.entityId ?? stored.entityId;
  const ssoUrl = input.ssoUrl ?? fromMetadata.ssoUrl ?? stored.ssoUrl;
  const certificate = input.certificate ?? fromMetadata.certificate ?? stored.certificate;
  if (!entityId) throw invalid('entityId', 'The provider entity id is required (entityId, or metadataXml)');
  if (!ssoUrl) throw invalid('ssoUrl', 'The provider SSO URL is required (ssoUrl, or metadataXml)');
  if (!/^https?:\/\//.test(ssoUrl)) throw invalid('ssoUrl', 'The provider SSO URL must be an http(s) URL');
  if (!certificate) {
    throw invalid(
      'certificate',
      "The provider's signing certificate is required (certificate, or metadataXml)",
    );
  }
  return { entityId, ssoUrl, certificate: certificatePem(certificate) };
}

async function readMetadata(xml: string): Promise<Partial<SamlProviderTerms>> {
  const root = await parseXml(xml);
  if (!root || localNameOf(root) !== 'EntityDescriptor') {
    throw invalid('metadataXml', 'Not SAML metadata: an EntityDescriptor is expected');
  }
  const idp = first(root, 'IDPSSODescriptor');
  if (!idp) throw invalid('metadataXml', 'The metadata describes no identity provider (IDPSSODescriptor)');
  const sso = elementsNamed(idp, 'SingleSignOnService').find(
    (e) => e.getAttribute('Binding') === REDIRECT_BINDING,
  );
  const signing = elementsNamed(idp, 'KeyDescriptor').find(
    (e) => (e.getAttribute('use') ?? 'signing') === 'signing',
  );
  const certificate = signing ? first(signing, 'X509Certificate')?.textContent?.trim() : undefined;
  return {
    entityId: root.getAttribute('entityID') ?? undefined,
    ssoUrl: sso?.getAttribute('Location') ?? undefined,
    certificate: certificate || undefined,
  };
}

const first = (node: XmlElement, localName: string) => elementsNamed(node, localName)[0];
