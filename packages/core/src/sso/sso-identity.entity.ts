import { defineEntity, p } from '@mikro-orm/core';
import { User } from '../accounts/user.entity.ts';
import { Workspace } from '../workspaces/workspace.entity.ts';

/**
 * Who a workspace's provider says someone is (`subject`: OIDC `sub`, SAML NameID), linked to their account:
 * later sign-ins find the account by it, whatever the email says by then.
 */
export const SsoIdentitySchema = defineEntity({
  name: 'SsoIdentity',
  tableName: 'sso_identities',
  uniques: [{ properties: ['workspace', 'user'], name: 'sso_identities_workspace_user_unique' }],
  properties: {
    workspace: () => p.manyToOne(Workspace).primary().deleteRule('cascade').updateRule('no action'),
    subject: p.text().primary(),
    // Indexed for the cascade when an account is deleted.
    user: () => p.manyToOne(User).deleteRule('cascade').updateRule('no action').index(),
    createdAt: p.datetime(),
    lastSignInAt: p.datetime(),
  },
});

export class SsoIdentity extends SsoIdentitySchema.class {}
SsoIdentitySchema.setClass(SsoIdentity);
