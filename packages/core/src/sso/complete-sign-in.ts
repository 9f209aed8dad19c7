import type { IssuedSession } from '../accounts/sessions.ts';
import { User } from '../accounts/user.entity.ts';
import { changesOf } from '../audit/audit-changes.ts';
import { auditContext, withAuditContext } from '../audit/audit-context.ts';
import { recordAudit } from '../audit/record-audit.ts';
import { linkedUser, linkIdentity, noteSignIn } from './identity-record.ts';
import { joinWorkspace } from './join-workspace.ts';
import { SsoRefused } from './sign-in-refusal.ts';
import type { SignInRequest } from './sign-in-requests.ts';
import type { SsoResources } from './sso-resources.ts';
import type { SignInTarget } from './workspace-connection.ts';

/** Who the provider says signed in, once its answer has been verified. */
export type ProvenIdentity = { subject: string; email: string; name: string | null };

export type SignedIn = { session: IssuedSession; returnTo: string };

const domainOf = (email: string) => email.slice(email.lastIndexOf('@') + 1).toLowerCase();

/**
 * A verified answer becomes a session. The account is the one the provider's subject is linked to; else,
 * for a subject seen the first time, a new account for its email (created just in time with the link), or
 * an existing account with that email only when that account's own session started this sign-in — a
 * provider is never trusted to take over an account it did not make. The person joins the workspace (or
 * stays as they are) and the session is marked as the workspace's, so leaving it ends the session.
 */
export async function completeSignIn(
  resources: SsoResources,
  target: SignInTarget,
  request: SignInRequest,
  identity: ProvenIdentity,
): Promise<SignedIn> {
  const { db, clock } = resources;
  const email = identity.email.toLowerCase();
  if (!target.connection.allowed_domains.includes(domainOf(email))) {
    throw new SsoRefused(
      'domain_not_allowed',
      `${email} is not of ${target.connection.allowed_domains.join(', ')}`,
    );
  }
  const workspaceId = target.workspaceId;
  const now = () => new Date(clock.now());
  const issuer = target.connection.issuer;
  let userId = await linkedUser(db.em(), workspaceId, issuer, identity.subject);
  let created = false;
  if (!userId) {
    const existing = await db.em().findOne(User, { email }, { fields: ['id'] });
    if (existing && existing.id !== request.linkingUserId) {
      throw new SsoRefused('account_exists', `${email} has an account not linked to this provider`);
    }
    if (existing) {
      await db.em().transactional((em) =>
        linkIdentity(em, {
          workspaceId,
          issuer,
          subject: identity.subject,
          userId: existing.id,
          at: now(),
        }),
      );
      userId = existing.id;
    } else {
      const user = await resources.createUser({
        email,
        name: identity.name?.trim().slice(0, 100) || email.slice(0, email.indexOf('@')),
        alongside: (em, id) =>
          linkIdentity(em, { workspaceId, issuer, subject: identity.subject, userId: id, at: now() }),
      });
      userId = user.id;
      created = true;
    }
  }
  const actingUser = userId;
  // The changes are the person's own: the request that made them names no caller yet.
  return withAuditContext({ ...auditContext(), actor: { kind: 'user', userId: actingUser } }, async () => {
    await db.em().transactional(async (em) => {
      await joinWorkspace(em, clock, {
        workspaceId,
        userId: actingUser,
        role: target.connection.default_role,
        ownerPlan: target.ownerPlan,
      });
      await noteSignIn(em, { workspaceId, issuer, subject: identity.subject, at: now() });
      await recordAudit(em, clock, {
        owner: { workspaceId },
        action: 'sso.sign_in',
        target: { type: 'workspace_member', id: actingUser },
        changes: changesOf(null, {
          subject: identity.subject,
          email,
          protocol: target.connection.protocol,
          ...(created ? { accountCreated: true } : {}),
        }),
      });
    });
    const user = await db.em().findOneOrFail(User, { id: actingUser });
    const session = await resources.issueSession(user, { ssoWorkspaceId: workspaceId });
    return { session, returnTo: request.returnTo };
  });
}
