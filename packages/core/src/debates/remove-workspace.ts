import { endAllWorkspaceSessions } from '../accounts/sessions.ts';
import { changesOf } from '../audit/audit-changes.ts';
import { recordAudit } from '../audit/record-audit.ts';
import { retryingDeadlocks } from '../db/deadlock-retry.ts';
import { query } from '../db/kysely.ts';
import { membershipOf } from '../workspaces/access.ts';
import { assertRight } from '../workspaces/roles.ts';
import type { WorkspaceTables } from '../workspaces/tables.ts';
import { deleteWorkspace } from '../workspaces/workspace-record.ts';
import type { DebateTables } from './tables.ts';
import type { WorkspaceDebateResources } from './workspace-debate-resources.ts';

type Tables = DebateTables & WorkspaceTables;

/** How long deleting a workspace waits for each of its running debates' engines to stop them. */
const CANCEL_TIMEOUT_MS = 2000;

/**
 * DELETE /api/workspaces/:id, the owner only. The engines are first told to stop the workspace's running
 * debates (as a permanent delete of one debate does); then the workspace, its members and its debates go
 * in one transaction (the foreign keys cascade), each affected user's score recomputed in it. A debate
 * started in between finds its row gone at its engine's next write and ends there. A transaction that
 * PostgreSQL aborts as a deadlock's victim (a debate's engine still writing it) runs again, afresh.
 */
export const removeWorkspace =
  ({ db, bus, clock, hooks }: WorkspaceDebateResources) =>
  async (userId: string, workspaceId: string): Promise<void> => {
    const owner = await membershipOf(db.em(), workspaceId, userId);
    assertRight(owner.role, 'delete', owner);
    const running = await query<Tables>(db.em())
      .selectFrom('debates')
      .select('id')
      .where('workspace_id', '=', workspaceId)
      .where('status', 'in', ['pending', 'running', 'paused'])
      .execute();
    await Promise.all(running.map(({ id }) => bus.commands.send(id, { type: 'cancel' }, CANCEL_TIMEOUT_MS)));
    // Its debates' engines may still be writing them (a cancel not yet taken, a final state on its way).
    await retryingDeadlocks(() =>
      db.em().transactional(async (em) => {
        const k = query<Tables>(em);
        const gone = await k
          .selectFrom('workspaces')
          .select(['name', 'slug'])
          .where('id', '=', workspaceId)
          .forUpdate()
          .executeTakeFirst();
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
        await endAllWorkspaceSessions(em, clock, workspaceId);
        await deleteWorkspace(em, workspaceId);
        await recordAudit(em, clock, {
          owner: { workspaceId },
          action: 'workspace.delete',
          target: { type: 'workspace', id: workspaceId },
          changes: changesOf(gone ?? null, null),
        });
        for (const { owner_id } of owners) await hooks.afterRemoval?.(em, owner_id);
      }),
    );
  };
