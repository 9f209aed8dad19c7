import type { EntityManager } from '@mikro-orm/core';
import {
  type CreateWorkspaceInput,
  DEFAULT_WORKSPACE_SETTINGS,
  WORKSPACES_PER_OWNER_MAX,
  type Workspace,
} from '@verdict/contracts';
import { sql } from 'kysely';
import { assertUnderUserCap } from '../accounts/per-user-cap.ts';
import { changesOf } from '../audit/audit-changes.ts';
import { recordAudit } from '../audit/record-audit.ts';
import { AppError } from '../shared/app-error.ts';
import { auditedFields } from './workspace-audit.ts';
import { addMember, insertWorkspace } from './workspace-record.ts';
import { type WorkspaceResources, workspaceQuery } from './workspace-resources.ts';
import { toWorkspace } from './workspace-views.ts';

/** POST /api/workspaces: the caller becomes its owner (and its first member). */
export const createWorkspace =
  ({ db, clock, plans }: WorkspaceResources) =>
  (userId: string, input: CreateWorkspaceInput): Promise<Workspace> =>
    db.em().transactional(async (em) => {
      await assertUnderUserCap(em, userId, {
        max: WORKSPACES_PER_OWNER_MAX,
        noun: 'workspace',
        count: () => countOwned(em, userId),
      });
      const owner = await workspaceQuery(em)
        .selectFrom('users')
        .select('plan')
        .where('id', '=', userId)
        .executeTakeFirstOrThrow();
      plans.assertIncludes(owner.plan, 'workspaces');
      const settings = { ...DEFAULT_WORKSPACE_SETTINGS, ...input.settings };
      const at = new Date(clock.now());
      const row = await insertWorkspace(em, {
        owner_id: userId,
        name: input.name,
        slug: input.slug,
        description: input.description ?? null,
        allow_member_invites: settings.allowMemberInvites,
        default_debate_mode: settings.defaultDebateMode,
        require_approval_for_public_debates: settings.requireApprovalForPublicDebates,
        created_at: at,
        updated_at: at,
      });
      if (!row) throw new AppError('CONFLICT', `The slug "${input.slug}" is taken`);
      await addMember(em, { workspace_id: row.id, user_id: userId, role: 'owner', joined_at: at });
      const workspace = toWorkspace(row, { role: 'owner', memberCount: 1, ownerPlan: owner.plan });
      // Its owner's membership comes with it: one entry, the workspace's first.
      await recordAudit(em, clock, {
        owner: { workspaceId: row.id },
        action: 'workspace.create',
        target: { type: 'workspace', id: row.id },
        changes: changesOf(null, { ...auditedFields(workspace), ownerId: userId }),
      });
      return workspace;
    });

const countOwned = (em: EntityManager, userId: string) =>
  workspaceQuery(em)
    .selectFrom('workspaces')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('owner_id', '=', userId)
    .executeTakeFirstOrThrow()
    .then((row) => row.n);
