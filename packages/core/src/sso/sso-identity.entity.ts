import { defineEntity, p } from '@mikro-orm/core';
import { User } from '../accounts/user.entity.ts';
import { Workspace } from '../workspaces/workspace.entity.ts';

/**
 * Who a workspace's provider says someone is (`subject`: OIDC `sub`, SAML NameID, unique per `issuer`),
 * linked to their account: later sign-ins find the account by it, whatever the email says by then. Kept
 * when the connection is removed or changed: a link answers only to its own provider.
 */
export const SsoIdentitySchema = defineEntity({
  name: 'SsoIdentity',
  tableName: 'sso_identities',
  uniques: [{ properties: ['workspace', 'user'], name: 'sso_identities_workspace_user_unique' }],
  properties: {
    workspace: () => p.manyToOne(Workspace).primary().deleteRule('cascade').updateRule('no action'),
    /** The provider that vouched (OIDC issuer, SAML entity id): a link holds only for the provider that made it. */
    issuer: p.text().primary(),
    subject: p.text().primary(),
    // Indexed for the cascade when an account is deleted.
    user: () => p.manyToOne(User).deleteRule('cascade').updateRule('no action').index(),
    createdAt: p.datetime(),
    lastSignInAt: p.datetime(),
  },
});

export class SsoIdentity extends SsoIdentitySchema.class {}
SsoIdentitySchema.setClass(SsoIdentity);
