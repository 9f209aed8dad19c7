import type { DebateMode, DebateObject, DebateStatus } from '@verdict/contracts';
import { query } from '../db/kysely.ts';
import type { Database } from '../db/orm.ts';
import { AppError, notFound } from '../shared/app-error.ts';
import type { Clock } from '../shared/clock.ts';
import { offsetOf, type PageNumbers, pageOf } from '../shared/paging.ts';
import { findMembership, type Membership, membershipOf } from '../workspaces/access.ts';
import { assertRight } from '../workspaces/roles.ts';
import type { WorkspaceTables } from '../workspaces/tables.ts';
import { Debate } from './debate.entity.ts';
import { toDebateObject } from './debate-view.ts';

export type DebateListQuery = {
  page: number;
  limit: number;
  status?: DebateStatus | undefined;
  mode?: DebateMode | undefined;
  /** Case-insensitive text within questions. */
  search?: string | undefined;
  sortBy: 'createdAt' | 'completedAt';
  sortOrder: 'asc' | 'desc';
  /** The workspace's debates (every member's) instead of the caller's own; members only. */
  workspaceId?: string | undefined;
};

export type DebatePage = { debates: DebateObject[] } & PageNumbers;

export type DebateReads = ReturnType<typeof createDebateReads>;

/** A debate and whether the caller owns it (else it is public, or theirs to read as a workspace member). */
export type DebateAudience = { debate: Debate; isOwner: boolean };

/** What control of a debate is for: running it (commands, delete) or publishing it (public, share link). */
export type ControlPurpose = 'control' | 'publish';

/**
 * What callers may see of debates: their own, their workspaces' debates, and others' only when public.
 * Deleted ones are gone.
 */
export function createDebateReads(db: Database, clock: Clock) {
  /** The caller's own debate; another user's or a deleted one is "not found", never "forbidden". */
  async function owned(userId: string, id: string): Promise<Debate> {
    const debate = await db.em().findOne(Debate, { id, owner: userId, deletedAt: null });
    if (!debate) throw notFound('Debate');
    return debate;
  }

  /** The caller's membership of the debate's workspace, if it has one and they are in it. */
  const membershipFor = (userId: string, debate: Debate): Promise<Membership | null> =>
    debate.workspace ? findMembership(db.em(), debate.workspace.id, userId) : Promise.resolve(null);

  /** Whether the caller may read the debate: its creator, a member of its workspace, anyone when public. */
  const readable = async (userId: string | null, debate: Debate) =>
    debate.isPublic ||
    (userId !== null && (debate.owner.id === userId || (await membershipFor(userId, debate)) !== null));

  const approvalRequired = async (workspaceId: string) =>
    (
      await query<WorkspaceTables>(db.em())
        .selectFrom('workspaces')
        .select('require_approval_for_public_debates as required')
        .where('id', '=', workspaceId)
        .executeTakeFirst()
    )?.required === true;

  /**
   * A debate the caller may run (commands, delete) or publish (make public, share): its creator, or an
   * admin or the owner of its workspace; while the workspace requires approval, only they may publish. A
   * workspace member without the right is FORBIDDEN; anyone else finds nothing, as with `owned`.
   */
  async function controlled(
    userId: string,
    id: string,
    purpose: ControlPurpose = 'control',
  ): Promise<Debate> {
    const debate = await db.em().findOne(Debate, { id, deletedAt: null });
    if (!debate) throw notFound('Debate');
    const membership = await membershipFor(userId, debate);
    const isCreator = debate.owner.id === userId;
    if (!membership) {
      if (!isCreator) throw notFound('Debate');
      // A creator who left the workspace still runs their debate there, but publishes it by its rules.
      if (purpose === 'publish' && debate.workspace && (await approvalRequired(debate.workspace.id))) {
        throw new AppError(
          'FORBIDDEN',
          'This workspace requires approval: its admins and owner publish its debates',
        );
      }
      return debate;
    }
    if (!isCreator) assertRight(membership.role, 'controlAnyDebate', membership);
    if (purpose === 'publish' && membership.requireApprovalForPublicDebates) {
      assertRight(membership.role, 'publishWhenApprovalRequired', membership);
    }
    return debate;
  }

  return {
    owned,

    /** Owner, a member of its workspace, or anyone when public. */
    visible: async (userId: string, id: string): Promise<Debate> => {
      const debate = await db.em().findOne(Debate, { id, deletedAt: null });
      if (!debate || !(await readable(userId, debate))) throw notFound('Debate');
      return debate;
    },

    controlled,

    /**
     * Who may react to a debate (votes, polls, comments): its owner always, anyone (signed in or not, as
     * the route allows) when it is public. A private debate of someone else is FORBIDDEN, as the spec says
     * for votes and polls; a missing or deleted one is NOT_FOUND.
     */
    audience: async (userId: string | null, id: string): Promise<DebateAudience> => {
      const debate = await db.em().findOne(Debate, { id, deletedAt: null });
      if (!debate) throw notFound('Debate');
      const isOwner = userId !== null && debate.owner.id === userId;
      if (!(await readable(userId, debate))) throw new AppError('FORBIDDEN', 'This debate is private');
      return { debate, isOwner };
    },

    list: async (userId: string, query: DebateListQuery): Promise<DebatePage> => {
      if (query.workspaceId) {
        const membership = await membershipOf(db.em(), query.workspaceId, userId);
        assertRight(membership.role, 'read', membership);
      }
      const where = {
        ...(query.workspaceId ? { workspace: query.workspaceId } : { owner: userId }),
        deletedAt: null,
        ...(query.status ? { status: query.status } : {}),
        ...(query.mode ? { mode: query.mode } : {}),
        ...(query.search ? { question: { $ilike: `%${escapeLike(query.search)}%` } } : {}),
      };
      const [debates, total] = await db.em().findAndCount(Debate, where, {
        orderBy: { [query.sortBy]: query.sortOrder, id: query.sortOrder },
        limit: query.limit,
        offset: offsetOf(query),
      });
      return {
        debates: debates.map(toDebateObject),
        ...pageOf(query, total),
      };
    },

    /** Hides the debate from lists and reads, for whoever controls it. */
    softDelete: async (userId: string, id: string): Promise<void> => {
      const debate = await controlled(userId, id);
      debate.deletedAt = new Date(clock.now());
      await db.em().persist(debate).flush();
    },
  };
}

/** Searches for the text as typed: % and _ are not wildcards here. */
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);
