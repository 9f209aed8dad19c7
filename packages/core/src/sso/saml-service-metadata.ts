import { loadSaml } from './saml-client.ts';
import { serviceProviderOf } from './service-provider.ts';
import type { SsoResources } from './sso-resources.ts';
import { signInTarget } from './workspace-connection.ts';

/**
 * GET /api/auth/sso/:slug/saml/metadata: this service as the workspace's SAML provider must know it (entity
 * id, ACS with the POST binding, email NameIDs, signed assertions wanted), for providers that read metadata.
 */
export const samlServiceMetadata =
  ({ db, config }: SsoResources) =>
  async (slug: string): Promise<string> => {
    const target = await signInTarget(db.em(), slug);
    const sp = serviceProviderOf(config.publicBaseUrl, target.slug);
    const { generateServiceProviderMetadata } = await loadSaml();
    return generateServiceProviderMetadata({
      issuer: sp.entityId,
      callbackUrl: sp.acsUrl,
      identifierFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
      wantAssertionsSigned: true,
    });
  };
