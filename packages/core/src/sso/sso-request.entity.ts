import { defineEntity, p } from '@mikro-orm/core';
import type { SsoProtocol } from '@verdict/contracts';
import { User } from '../accounts/user.entity.ts';
import { Workspace } from '../workspaces/workspace.entity.ts';

/**
 * A sign-in under way, between the redirect to the provider and its answer: the OIDC `state` or the SAML
 * request's ID (`id`), what the answer is checked against (PKCE verifier, nonce, the browser's binding
 * cookie), where to go after, and the account signed in when it started (the proof that allows linking an
 * existing account). Used once, by the answer; kept until it expires, so a replay is told from a stranger.
 */
export const SsoRequestSchema = defineEntity({
  name: 'SsoRequest',
  tableName: 'sso_requests',
  properties: {
    id: p.text().primary(),
    workspace: () => p.manyToOne(Workspace).deleteRule('cascade').updateRule('no action').index(),
    protocol: p.text().$type<SsoProtocol>(),
    /** SHA-256 of the random value in the browser's binding cookie. */
    bindingHash: p.text(),
    codeVerifier: p.text().nullable(),
    nonce: p.text().nullable(),
    returnTo: p.text(),
    linkingUser: () => p.manyToOne(User).nullable().deleteRule('cascade').updateRule('no action').index(),
    expiresAt: p.datetime().index(),
    /** When its answer came: a second answer to the same request is a replay. */
    usedAt: p.datetime().nullable(),
  },
});

export class SsoRequest extends SsoRequestSchema.class {}
SsoRequestSchema.setClass(SsoRequest);
