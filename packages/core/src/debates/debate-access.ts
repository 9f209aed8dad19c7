import type { EntityManager } from '@mikro-orm/core';
import { query } from '../db/kysely.ts';
import type { Database } from '../db/orm.ts';
import { AppError, notFound } from '../shared/app-error.ts';
import type { SharingTables } from '../sharing/tables.ts';
import { findMembership, type Membership, membershipOf } from '../workspaces/access.ts';
import { assertRight } from '../workspaces/roles.ts';
import type { WorkspaceTables } from '../workspaces/tables.ts';
import { Debate } from './debate.entity.ts';

/** Where a caller stands to a debate: its creator or not, and their membership of its workspace, if any. */
export type Standing = { isCreator: boolean; membership: Membership | null };

/** Nobody in particular: a reader who is not signed in. */
const STRANGER: Standing = { isCreator: false, membership: null };

/**
 * Who may read a debate, the one rule: its creator, a member of its workspace, and anyone (signed in or
 * not, as the route allows) when it is public. Every read of one debate asks this.
 */
export const mayRead = (debate: { isPublic: boolean }, standing: Standing): boolean =>
  debate.isPublic || standing.isCreator || standing.membership !== null;

/**
 * What a reader of a debate is shown beyond its question, status, owner id and verdict: what it cost (the
 * debate object's `cost`, GET /api/debates/:id/cost).
 */
export type Disclosure = { cost: boolean };

/** All of it: what the debate's creator and the members of its workspace are shown. */
export const INSIDER: Disclosure = { cost: true };

/**
 * Who is shown a debate's cost, the one rule: its creator and the members of its workspace, always. Anyone
 * else reads it only because it is public, and is shown what its share view shows: the cost only when the
 * owner's share link says `showCost` (no link: the defaults, cost hidden).
 */
export const disclosureTo = (standing: Standing, showCost: boolean): Disclosure =>
  isInsider(standing) ? INSIDER : { cost: showCost };

const isInsider = (standing: Standing) => standing.isCreator || standing.membership !== null;

/** A debate the caller asked about, where they stand to it, and whether they may read it. */
export type DebateReader = { debate: Debate; standing: Standing; mayRead: boolean };

/** A debate and whether the caller owns it (else it is public, or theirs to read as a workspace member). */
export type DebateAudience = { debate: Debate; isOwner: boolean };

/** What control of a debate is for: running it (commands, delete) or publishing it (public, share link). */
export type ControlPurpose = 'control' | 'publish';

export type DebateAccess = ReturnType<typeof createDebateAccess>;

/**
 * Who may read, react to, run and publish one debate: the answers every feature asks here instead of
 * deciding. Deleted debates are gone for everyone (NOT_FOUND); writes of the record are not made here.
 */
export function createDebateAccess(db: Database) {
  /** The debate, where the caller stands to it, and whether they may read it; missing or deleted: NOT_FOUND. */
  const reader = async (
    userId: string | null,
    id: string,
    em: EntityManager = db.em(),
  ): Promise<DebateReader> => {
    const debate = await findDebate(em, id);
    const standing = await standingOf(em, userId, debate);
    return { debate, standing, mayRead: mayRead(debate, standing) };
  };

  return {
    reader,

    /** The caller's own debate; another user's or a deleted one is "not found", never "forbidden". */
    owned: async (userId: string, id: string): Promise<Debate> => {
      const debate = await db.em().findOne(Debate, { id, owner: userId, deletedAt: null });
      if (!debate) throw notFound('Debate');
      return debate;
    },

    /** A debate the caller may read; one they may not is "not found", as if it did not exist. */
    visible: async (userId: string, id: string): Promise<Debate> => {
      const read = await reader(userId, id);
      if (!read.mayRead) throw notFound('Debate');
      return read.debate;
    },

    /**
     * A debate the caller may read ("not found" otherwise, as `visible`), and what of it they are shown
     * (disclosureTo): a public debate of someone else without its cost unless the owner's share link shows it.
     */
    shown: async (userId: string, id: string): Promise<{ debate: Debate; shows: Disclosure }> => {
      const read = await reader(userId, id);
      if (!read.mayRead) throw notFound('Debate');
      // The share link is asked only about a reader from outside.
      const link = isInsider(read.standing)
        ? null
        : await query<SharingTables>(db.em())
            .selectFrom('share_links')
            .select('show_cost')
            .where('debate_id', '=', id)
            .executeTakeFirst();
      return { debate: read.debate, shows: disclosureTo(read.standing, link?.show_cost === true) };
    },

    /**
     * Who may react to a debate (votes, polls): whoever may read it. A private debate of someone else is
     * FORBIDDEN, as the spec says for votes and polls; a missing or deleted one is NOT_FOUND.
     */
    audience: async (userId: string | null, id: string): Promise<DebateAudience> => {
      const read = await reader(userId, id);
      if (!read.mayRead) throw new AppError('FORBIDDEN', 'This debate is private');
      return { debate: read.debate, isOwner: read.standing.isCreator };
    },

    /**
     * A debate the caller may run (commands, delete) or publish (make public, share): its creator, or an
     * admin or the owner of its workspace; while the workspace requires approval, only they may publish. A
     * workspace member without the right is FORBIDDEN; anyone else finds nothing, as with `owned`.
     */
    controlled: (userId: string, id: string, purpose: ControlPurpose = 'control'): Promise<Debate> =>
      controlledDebate(db.em(), userId, id, purpose),

    /** Whether the caller may list a workspace's debates (every member's): its members, by their role. */
    assertWorkspaceReader: async (userId: string, workspaceId: string): Promise<void> => {
      const membership = await membershipOf(db.em(), workspaceId, userId);
      assertRight(membership.role, 'read', membership);
    },
  };
}

async function findDebate(em: EntityManager, id: string): Promise<Debate> {
  const debate = await em.findOne(Debate, { id, deletedAt: null });
  if (!debate) throw notFound('Debate');
  return debate;
}

async function standingOf(em: EntityManager, userId: string | null, debate: Debate): Promise<Standing> {
  if (userId === null) return STRANGER;
  const membership = debate.workspace ? await findMembership(em, debate.workspace.id, userId) : null;
  return { isCreator: debate.owner.id === userId, membership };
}

const approvalRequired = async (em: EntityManager, workspaceId: string) =>
  (
    await query<WorkspaceTables>(em)
      .selectFrom('workspaces')
      .select('require_approval_for_public_debates as required')
      .where('id', '=', workspaceId)
      .executeTakeFirst()
  )?.required === true;

/** `DebateAccess.controlled`: the debate, when the caller may run or publish it. */
async function controlledDebate(em: EntityManager, userId: string, id: string, purpose: ControlPurpose) {
  const debate = await findDebate(em, id);
  const { isCreator, membership } = await standingOf(em, userId, debate);
  if (!membership) {
    if (!isCreator) throw notFound('Debate');
    // A creator who left the workspace still runs their debate there, but publishes it by its rules.
    if (purpose === 'publish' && debate.workspace && (await approvalRequired(em, debate.workspace.id))) {
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
