import { defineEntity, p } from '@mikro-orm/core';
import type { AssignableWorkspaceRole, SsoProtocol } from '@verdict/contracts';
import { Workspace } from '../workspaces/workspace.entity.ts';

/**
 * A workspace's one identity provider: OIDC (issuer, client id, the client secret sealed by secret-box.ts)
 * or SAML (the provider's entity id in `issuer`, its SSO URL and signing certificate), with who it may sign
 * in (`allowedDomains`), the role they join with, and whether password sign-in is refused to them.
 */
export const SsoConnectionSchema = defineEntity({
  name: 'SsoConnection',
  tableName: 'sso_connections',
  checks: [{ name: 'sso_connections_protocol_check', expression: `protocol in ('oidc', 'saml')` }],
  properties: {
    workspace: () => p.manyToOne(Workspace).primary().deleteRule('cascade').updateRule('no action'),
    protocol: p.text().$type<SsoProtocol>(),
    issuer: p.text(),
    clientId: p.text().nullable(),
    clientSecretSealed: p.text().nullable(),
    ssoUrl: p.text().nullable(),
    certificate: p.text().nullable(),
    allowedDomains: p.json<string[]>(),
    defaultRole: p.text().$type<AssignableWorkspaceRole>(),
    requireSso: p.boolean(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});

export class SsoConnection extends SsoConnectionSchema.class {}
SsoConnectionSchema.setClass(SsoConnection);
