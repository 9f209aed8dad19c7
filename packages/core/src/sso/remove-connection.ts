import { changesOf } from '../audit/audit-changes.ts';
import { recordAudit } from '../audit/record-audit.ts';
import { notFound } from '../shared/app-error.ts';
import { lockWorkspace, membershipOf } from '../workspaces/access.ts';
import { assertRight } from '../workspaces/roles.ts';
import { deleteConnection, findConnection } from './connection-record.ts';
import { auditedFields } from './connection-view.ts';
import type { SsoResources } from './sso-resources.ts';

/**
 * DELETE /api/workspaces/:id/sso: the owner turns single sign-on off (whatever the plan is now, so a
 * downgraded workspace can still remove it). Password sign-in is no longer refused; the identities it
 * linked stay, for the same provider set up again.
 */
export const removeConnection =
  ({ db, clock }: SsoResources) =>
  (userId: string, workspaceId: string): Promise<void> =>
    db.em().transactional(async (em) => {
      await lockWorkspace(em, workspaceId);
      const membership = await membershipOf(em, workspaceId, userId);
      assertRight(membership.role, 'configureSso', membership);
      const before = await findConnection(em, workspaceId, true);
      if (!before || !(await deleteConnection(em, workspaceId))) throw notFound('Single sign-on connection');
      await recordAudit(em, clock, {
        owner: { workspaceId },
        action: 'sso_connection.delete',
        target: { type: 'sso_connection', id: workspaceId },
        changes: changesOf(auditedFields(before), null, ['clientSecret']),
      });
    });
