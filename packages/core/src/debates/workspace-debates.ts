import type { DebateWorkspace } from '@verdict/contracts';
import { assertPlanIncludes } from '../billing/plan-gates.ts';
import type { Bus } from '../bus/ports.ts';
import { retryingDeadlocks } from '../db/deadlock-retry.ts';
import { query } from '../db/kysely.ts';
import type { Database } from '../db/orm.ts';
import { AppError, notFound } from '../shared/app-error.ts';
import { findMembership, type Membership, membershipOf } from '../workspaces/access.ts';
import { assertRight } from '../workspaces/roles.ts';
import type { WorkspaceTables } from '../workspaces/tables.ts';
import { deleteWorkspace } from '../workspaces/workspace-record.ts';
import type { DebateAccess } from './debate-access.ts';
import type { DebateRemovalHooks } from './debate-control.ts';
import { moveDebateToWorkspace } from './debate-record.ts';
import type { DebateTables } from './tables.ts';

type Tables = DebateTables & WorkspaceTables;

/** How long deleting a workspace waits for each of its running debates' engines to stop them. */
const CANCEL_TIMEOUT_MS = 2000;

/**
 * Debates and the workspaces they live in: moving a debate in or out, and deleting a workspace with all its
 * debates. (Reading a workspace's debates is debateReads.list with a workspaceId.)
 */
export function createWorkspaceDebates(
  db: Database,
  bus: Bus,
  access: DebateAccess,
  upgradeUrl: string,
  hooks: DebateRemovalHooks = {},
) {
  const k = () => query<Tables>(db.em());

  return {
    /**
     * PATCH /api/debates/:id/workspace: its creator moves it into a workspace they may write to, or back to
     * their own account (null). What it was charged stays where it was charged. The checks and the write are
     * one transaction, locking in the order workspace changes do (the workspace row, then the member row,
     * then the debate): a removal or demotion of the mover, or the debate made public, cannot slip between
     * the check and the move.
     */
    move: async (userId: string, debateId: string, workspaceId: string | null): Promise<DebateWorkspace> => {
      const debate = await access.visible(userId, debateId);
      if (debate.owner.id !== userId) throw new AppError('FORBIDDEN', 'Only its creator may move a debate');
      return db.em().transactional(async (em) => {
        const k = query<Tables>(em);
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
          .select(['owner_id', 'is_public'])
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
        return { id: debateId, workspaceId };
      });
    },

    /**
     * DELETE /api/workspaces/:id, the owner only. The engines are first told to stop the workspace's running
     * debates (as a permanent delete of one debate does); then the workspace, its members and its debates go
     * in one transaction (the foreign keys cascade), each affected user's score recomputed in it. A debate
     * started in between finds its row gone at its engine's next write and ends there. A transaction that
     * PostgreSQL aborts as a deadlock's victim (a debate's engine still writing it) runs again, afresh.
     */
    removeWorkspace: async (userId: string, workspaceId: string): Promise<void> => {
      const owner = await membershipOf(db.em(), workspaceId, userId);
      assertRight(owner.role, 'delete', owner);
      const running = await k()
        .selectFrom('debates')
        .select('id')
        .where('workspace_id', '=', workspaceId)
        .where('status', 'in', ['pending', 'running', 'paused'])
        .execute();
      await Promise.all(
        running.map(({ id }) => bus.commands.send(id, { type: 'cancel' }, CANCEL_TIMEOUT_MS)),
      );
      // Its debates' engines may still be writing them (a cancel not yet taken, a final state on its way).
      await retryingDeadlocks(() =>
        db.em().transactional(async (em) => {
          const k = query<Tables>(em);
          await k.selectFrom('workspaces').select('id').where('id', '=', workspaceId).forUpdate().execute();
          const membership = await membershipOf(em, workspaceId, userId);
          assertRight(membership.role, 'delete', membership);
          // The workspace's debates locked (after the workspace, as a move locks them) before the cascade.
          const doomed = await k
            .selectFrom('debates')
            .select(['id', 'owner_id'])
            .where('workspace_id', '=', workspaceId)
            .orderBy('id')
            .forUpdate()
            .execute();
          await hooks.beforeRemoval?.(
            em,
            doomed.map((row) => row.id),
          );
          const owners = [...new Set(doomed.map((row) => row.owner_id))].map((owner_id) => ({ owner_id }));
          await deleteWorkspace(em, workspaceId);
          for (const { owner_id } of owners) await hooks.afterRemoval?.(em, owner_id);
        }),
      );
    },
  };
}

export type WorkspaceDebates = ReturnType<typeof createWorkspaceDebates>;
