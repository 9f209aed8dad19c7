import { defineEntity, p } from '@mikro-orm/core';
import { User } from './user.entity.ts';

export const SessionSchema = defineEntity({
  name: 'Session',
  tableName: 'sessions',
  properties: {
    id: p.uuid().primary().defaultRaw('gen_random_uuid()'),
    user: () => p.manyToOne(User).deleteRule('cascade'),
    /** SHA-256 of the cookie token; the token itself is never stored. */
    tokenHash: p.string().length(64).unique(),
    expiresAt: p.datetime(),
    createdAt: p.datetime().defaultRaw('now()'),
    /**
     * The workspace whose single sign-on opened the session, if one did: removing the person from that
     * workspace, or the workspace itself, ends it.
     */
    // An id, not a relation: accounts sit below workspaces and import nothing of them. The workspace's
    // removal ends these sessions itself (debates/remove-workspace.ts).
    ssoWorkspaceId: p.uuid().nullable().index(),
  },
});

export class Session extends SessionSchema.class {}
SessionSchema.setClass(Session);
