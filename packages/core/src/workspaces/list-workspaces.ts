import type { Plan, WorkspaceList } from '@verdict/contracts';
import { sql } from 'kysely';
import { type WorkspaceResources, workspaceQuery } from './workspace-resources.ts';
import { toWorkspace, WORKSPACE_COLUMNS } from './workspace-views.ts';

/** GET /api/workspaces: those the caller belongs to, newest first, with their role in each. */
export const listWorkspaces =
  ({ db }: WorkspaceResources) =>
  async (userId: string): Promise<WorkspaceList> => {
    const rows = await workspaceQuery(db.em())
      .selectFrom('workspace_members as m')
      .innerJoin('workspaces as w', 'w.id', 'm.workspace_id')
      .innerJoin('users as o', 'o.id', 'w.owner_id')
      .select([
        ...WORKSPACE_COLUMNS,
        'm.role',
        'o.plan as owner_plan',
        (eb) =>
          eb
            .selectFrom('workspace_members as all')
            .select(sql<number>`count(*)::int`.as('n'))
            .whereRef('all.workspace_id', '=', 'w.id')
            .as('member_count'),
      ])
      .where('m.user_id', '=', userId)
      .orderBy('w.created_at', 'desc')
      .orderBy('w.id', 'desc')
      .execute();
    return {
      workspaces: rows.map((row) =>
        toWorkspace(row, {
          role: row.role,
          memberCount: row.member_count ?? 0,
          ownerPlan: row.owner_plan as Plan,
        }),
      ),
    };
  };
