import type { DeprovisionResult } from '@verdict/contracts';
import { endWorkspaceSessions } from '../accounts/sessions.ts';
import { User } from '../accounts/user.entity.ts';
import { changesOf } from '../audit/audit-changes.ts';
import { recordAudit } from '../audit/record-audit.ts';
import { AppError } from '../shared/app-error.ts';
import { lockWorkspace } from '../workspaces/access.ts';
import { memberRow } from '../workspaces/members/member-rows.ts';
import { recordMemberChange } from '../workspaces/members/record-member-change.ts';
import { removeMember } from '../workspaces/workspace-record.ts';
import { ssoAccess } from './connection-access.ts';
import type { SsoResources } from './sso-resources.ts';

/**
 * POST /api/workspaces/:id/sso/deprovision: someone left the company, named by email as the provider knows
 * them (an offboarding script's call, with an admin's key). At once: out of the workspace, and the sessions
 * its sign-in opened ended. Their link to the provider stays: the provider decides who may sign in, so
 * should it still let them (it has not been told yet, or they come back), they join again as anyone new
 * would. Idempotent: a second call finds nothing to do. The owner cannot be deprovisioned.
 */
export const deprovision =
  ({ db, clock, plans }: SsoResources) =>
  (callerId: string, workspaceId: string, email: string): Promise<DeprovisionResult> =>
    db.em().transactional(async (em) => {
      await lockWorkspace(em, workspaceId);
      await ssoAccess(em, plans, workspaceId, callerId, 'manageMembers');
      const user = await em.findOne(User, { email: email.toLowerCase() }, { fields: ['id'] });
      if (!user) return { userId: null, removedFromWorkspace: false, sessionsEnded: 0 };
      const member = await memberRow(em, workspaceId, user.id);
      if (member?.role === 'owner') throw new AppError('FORBIDDEN', 'The owner cannot be deprovisioned');
      if (member) {
        await removeMember(em, workspaceId, user.id);
        await recordMemberChange(em, clock, {
          workspaceId,
          userId: user.id,
          before: member.role,
          after: null,
        });
      }
      const sessionsEnded = await endWorkspaceSessions(em, clock, workspaceId, user.id);
      if (member || sessionsEnded > 0) {
        await recordAudit(em, clock, {
          owner: { workspaceId },
          action: 'sso.deprovision',
          target: { type: 'workspace_member', id: user.id },
          changes: changesOf(null, { email: email.toLowerCase(), sessionsEnded }),
        });
      }
      return { userId: user.id, removedFromWorkspace: member !== undefined, sessionsEnded };
    });
