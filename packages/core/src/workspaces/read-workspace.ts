import type { EntityManager } from '@mikro-orm/core';
import type { Workspace } from '@verdict/contracts';
import { sql } from 'kysely';
import type { Membership } from './access.ts';
import { workspaceQuery } from './workspace-resources.ts';
import { toWorkspace, WORKSPACE_COLUMNS } from './workspace-views.ts';

/** The workspace as `membership`'s holder sees it, with their role and its member count, in `em`. */
export async function readWorkspace(
  em: EntityManager,
  workspaceId: string,
  membership: Membership,
): Promise<Workspace> {
  const row = await workspaceQuery(em)
    .selectFrom('workspaces as w')
    .select(WORKSPACE_COLUMNS)
    .where('w.id', '=', workspaceId)
    .executeTakeFirstOrThrow();
  return toWorkspace(row, {
    role: membership.role,
    memberCount: await memberCount(em, workspaceId),
    ownerPlan: membership.ownerPlan,
  });
}

const memberCount = (em: EntityManager, workspaceId: string) =>
  workspaceQuery(em)
    .selectFrom('workspace_members')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('workspace_id', '=', workspaceId)
    .executeTakeFirstOrThrow()
    .then((row) => row.n);
