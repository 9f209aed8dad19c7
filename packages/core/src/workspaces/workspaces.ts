import type { EntityManager } from '@mikro-orm/core';
import {
  type CreateWorkspaceInput,
  DEFAULT_WORKSPACE_SETTINGS,
  type Plan,
  type UpdateWorkspaceInput,
  WORKSPACES_PER_OWNER_MAX,
  type Workspace,
  type WorkspaceList,
} from '@verdict/contracts';
import { sql } from 'kysely';
import { assertUnderUserCap } from '../accounts/per-user-cap.ts';
import type { AccountTables } from '../accounts/tables.ts';
import type { PlanGates } from '../billing/plan-gates.ts';
import { query } from '../db/kysely.ts';
import type { Database } from '../db/orm.ts';
import { AppError } from '../shared/app-error.ts';
import type { Clock } from '../shared/clock.ts';
import { lockWorkspace, type Membership, membershipOf } from './access.ts';
import { assertRight } from './roles.ts';
import type { WorkspaceTables } from './tables.ts';
import { addMember, insertWorkspace, updateWorkspace } from './workspace-record.ts';
import { toWorkspace, WORKSPACE_COLUMNS } from './workspace-views.ts';

type Tables = WorkspaceTables & AccountTables;

/**
 * Workspaces: created by a BYOK Pro or Enterprise account, which becomes their owner and pays for their
 * debates; read by every member; changed by admins and the owner (roles.ts). Members: workspace-members.ts.
 * Debates in workspaces and deleting a workspace with them: debates/workspace-debates.ts.
 */
export function createWorkspaces(db: Database, clock: Clock, plans: PlanGates) {
  const k = (em: EntityManager = db.em()) => query<Tables>(em);

  const memberCount = (em: EntityManager, workspaceId: string) =>
    k(em)
      .selectFrom('workspace_members')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('workspace_id', '=', workspaceId)
      .executeTakeFirstOrThrow()
      .then((row) => row.n);

  async function view(em: EntityManager, workspaceId: string, membership: Membership): Promise<Workspace> {
    const row = await k(em)
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

  const countOwned = (em: EntityManager, userId: string) =>
    k(em)
      .selectFrom('workspaces')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('owner_id', '=', userId)
      .executeTakeFirstOrThrow()
      .then((row) => row.n);

  return {
    /** POST /api/workspaces: the caller becomes its owner (and its first member). */
    create: (userId: string, input: CreateWorkspaceInput): Promise<Workspace> =>
      db.em().transactional(async (em) => {
        await assertUnderUserCap(em, userId, {
          max: WORKSPACES_PER_OWNER_MAX,
          noun: 'workspace',
          count: () => countOwned(em, userId),
        });
        const owner = await k(em)
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
        return toWorkspace(row, { role: 'owner', memberCount: 1, ownerPlan: owner.plan });
      }),

    /** GET /api/workspaces: those the caller belongs to, newest first, with their role in each. */
    list: async (userId: string): Promise<WorkspaceList> => {
      const rows = await k()
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
    },

    /** GET /api/workspaces/:id: any member. */
    get: async (userId: string, workspaceId: string): Promise<Workspace> => {
      const em = db.em();
      return view(em, workspaceId, await membershipOf(em, workspaceId, userId));
    },

    /**
     * Whose invoices a workspace's are: its owner's (who pays for it), limited by the caller of this to those
     * of purchases made for the workspace; shown to its admins and owner (GET /api/invoices?workspaceId).
     */
    billedAccount: async (userId: string, workspaceId: string): Promise<string> => {
      const membership = await membershipOf(db.em(), workspaceId, userId);
      assertRight(membership.role, 'viewBilling', membership);
      return membership.ownerId;
    },
    /**
     * Before a purchase made for a workspace: 404 no such workspace, 403 the caller is not its owner (the
     * owner's account pays for it, so only the owner buys for it).
     */
    assertPaysFor: async (userId: string, workspaceId: string): Promise<void> => {
      const membership = await membershipOf(db.em(), workspaceId, userId);
      assertRight(membership.role, 'payFor', membership);
    },
    /** PATCH /api/workspaces/:id: admins and the owner; only the fields (and settings) given change. */
    update: (userId: string, input: UpdateWorkspaceInput): Promise<Workspace> =>
      db.em().transactional(async (em) => {
        await lockWorkspace(em, input.id);
        const membership = await membershipOf(em, input.id, userId);
        assertRight(membership.role, 'update', membership);
        const settings = input.settings ?? {};
        await updateWorkspace(em, input.id, {
          ...(input.name === undefined ? {} : { name: input.name }),
          ...(input.description === undefined ? {} : { description: input.description }),
          ...(settings.allowMemberInvites === undefined
            ? {}
            : { allow_member_invites: settings.allowMemberInvites }),
          ...(settings.defaultDebateMode === undefined
            ? {}
            : { default_debate_mode: settings.defaultDebateMode }),
          ...(settings.requireApprovalForPublicDebates === undefined
            ? {}
            : { require_approval_for_public_debates: settings.requireApprovalForPublicDebates }),
          updated_at: new Date(clock.now()),
        });
        return view(em, input.id, membership);
      }),
  };
}

export type Workspaces = ReturnType<typeof createWorkspaces>;
