import type { SsoConnection } from '@verdict/contracts';
import type { StoredConnection } from './connection-record.ts';
import { fingerprintOf } from './saml-provider-terms.ts';
import { serviceProviderOf } from './service-provider.ts';

/** A stored connection as its owner and admins read it: whether a secret is set, never the secret. */
export function toConnectionView(row: StoredConnection, slug: string, publicBaseUrl: string): SsoConnection {
  return {
    workspaceId: row.workspace_id,
    protocol: row.protocol,
    issuer: row.issuer,
    clientId: row.client_id,
    hasClientSecret: row.client_secret_sealed !== null,
    ssoUrl: row.sso_url,
    certificateFingerprint: row.certificate ? fingerprintOf(row.certificate) : null,
    allowedDomains: row.allowed_domains,
    defaultRole: row.default_role,
    requireSso: row.require_sso,
    serviceProvider: serviceProviderOf(publicBaseUrl, slug),
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}

/** The fields an audit entry compares (a secret only as changed; the certificate by its fingerprint). */
export const auditedFields = (row: StoredConnection | null) =>
  row && {
    protocol: row.protocol,
    issuer: row.issuer,
    clientId: row.client_id,
    ssoUrl: row.sso_url,
    certificateFingerprint: row.certificate ? fingerprintOf(row.certificate) : null,
    allowedDomains: row.allowed_domains,
    defaultRole: row.default_role,
    requireSso: row.require_sso,
    clientSecret: row.client_secret_sealed ?? undefined,
  };
