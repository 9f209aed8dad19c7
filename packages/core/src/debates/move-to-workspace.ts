import type { DebateWorkspace } from '@verdict/contracts';
import { recordAudit } from '../audit/record-audit.ts';
import { assertPlanIncludes } from '../billing/plan-gates.ts';
import { query } from '../db/kysely.ts';
import { AppError, notFound } from '../shared/app-error.ts';
import { findMembership, type Membership } from '../workspaces/access.ts';
import { assertRight } from '../workspaces/roles.ts';
import type { WorkspaceTables } from '../workspaces/tables.ts';
import { debateAuditOwner } from './debate-audit.ts';
import { moveDebateToWorkspace } from './debate-record.ts';
import type { DebateTables } from './tables.ts';
import type { WorkspaceDebateResources } from './workspace-debate-resources.ts';

/**
 * PATCH /api/debates/:id/workspace: its creator moves it into a workspace they may write to, or back to
 * their own account (null). What it was charged stays where it was charged. The checks and the write are
 * one transaction, locking in the order workspace changes do (the workspace row, then the member row,
 * then the debate): a removal or demotion of the mover, or the debate made public, cannot slip between
 * the check and the move.
 */
export const moveToWorkspace =
  ({ db, clock, access, upgradeUrl }: WorkspaceDebateResources) =>
  async (userId: string, debateId: string, workspaceId: string | null): Promise<DebateWorkspace> => {
    const debate = await access.visible(userId, debateId);
    if (debate.owner.id !== userId) throw new AppError('FORBIDDEN', 'Only its creator may move a debate');
    return db.em().transactional(async (em) => {
      const k = query<DebateTables & WorkspaceTables>(em);
      let target: Membership | null = null;
      if (workspaceId) {
        await k.selectFrom('workspaces').select('id').where('id', '=', workspaceId).forKeyShare().execute();
        target = await findMembership(em, workspaceId, userId, 'share');
        if (!target) throw new AppError('FORBIDDEN', 'You are not a member of that workspace');
        assertRight(target.role, 'writeDebates', target);
        assertPlanIncludes(target.ownerPlan, 'workspaces', upgradeUrl, "the workspace owner's account");
      }
      const row = await k
        .selectFrom('debates')
        .select(['owner_id', 'is_public', 'workspace_id'])
        .where('id', '=', debateId)
        .where('deleted_at', 'is', null)
        .forUpdate()
        .executeTakeFirst();
      if (!row) throw notFound('Debate');
      // A public debate moved in would be published without the approval the workspace requires.
      if (target && row.is_public && target.requireApprovalForPublicDebates) {
        assertRight(target.role, 'publishWhenApprovalRequired', target);
      }
      await moveDebateToWorkspace(em, debateId, workspaceId);
      if (row.workspace_id !== workspaceId) {
        await recordAudit(em, clock, {
          // The workspace it leaves, else the one it enters: a debate taken out of a workspace is
          // its admins' to see, and one moved in is theirs from now on.
          owner: debateAuditOwner({ workspaceId: row.workspace_id ?? workspaceId, ownerId: userId }),
          action: 'debate.move',
          target: { type: 'debate', id: debateId },
          changes: { workspaceId: { before: row.workspace_id, after: workspaceId } },
        });
      }
      return { id: debateId, workspaceId };
    });
  };
