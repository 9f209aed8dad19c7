import type { DebateMode, DebateObject, DebateStatus } from '@verdict/contracts';
import type { Database } from '../db/orm.ts';
import { AppError, notFound } from '../shared/app-error.ts';
import type { Clock } from '../shared/clock.ts';
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
};

export type DebatePage = {
  debates: DebateObject[];
  page: number;
  limit: number;
  total: number;
  totalPages: number;
};

export type DebateReads = ReturnType<typeof createDebateReads>;

/** A debate and whether the caller owns it (else it is public). */
export type DebateAudience = { debate: Debate; isOwner: boolean };

/** What callers may see of debates: their own, and others' only when public. Deleted ones are gone. */
export function createDebateReads(db: Database, clock: Clock) {
  /** The caller's own debate; another user's or a deleted one is "not found", never "forbidden". */
  async function owned(userId: string, id: string): Promise<Debate> {
    const debate = await db.em().findOne(Debate, { id, owner: userId, deletedAt: null });
    if (!debate) throw notFound('Debate');
    return debate;
  }

  return {
    owned,

    /** Owner, or anyone when public. */
    visible: async (userId: string, id: string): Promise<Debate> => {
      const debate = await db.em().findOne(Debate, { id, deletedAt: null });
      if (!debate || (debate.owner.id !== userId && !debate.isPublic)) throw notFound('Debate');
      return debate;
    },

    /**
     * Who may react to a debate (votes, polls, comments): its owner always, anyone (signed in or not, as
     * the route allows) when it is public. A private debate of someone else is FORBIDDEN, as the spec says
     * for votes and polls; a missing or deleted one is NOT_FOUND.
     */
    audience: async (userId: string | null, id: string): Promise<DebateAudience> => {
      const debate = await db.em().findOne(Debate, { id, deletedAt: null });
      if (!debate) throw notFound('Debate');
      const isOwner = userId !== null && debate.owner.id === userId;
      if (!isOwner && !debate.isPublic) throw new AppError('FORBIDDEN', 'This debate is private');
      return { debate, isOwner };
    },

    list: async (userId: string, query: DebateListQuery): Promise<DebatePage> => {
      const where = {
        owner: userId,
        deletedAt: null,
        ...(query.status ? { status: query.status } : {}),
        ...(query.mode ? { mode: query.mode } : {}),
        ...(query.search ? { question: { $ilike: `%${escapeLike(query.search)}%` } } : {}),
      };
      const [debates, total] = await db.em().findAndCount(Debate, where, {
        orderBy: { [query.sortBy]: query.sortOrder, id: query.sortOrder },
        limit: query.limit,
        offset: (query.page - 1) * query.limit,
      });
      return {
        debates: debates.map(toDebateObject),
        page: query.page,
        limit: query.limit,
        total,
        totalPages: Math.ceil(total / query.limit),
      };
    },

    /** Hides the debate from lists and reads; idempotent for its owner. */
    softDelete: async (userId: string, id: string): Promise<void> => {
      const debate = await owned(userId, id);
      debate.deletedAt = new Date(clock.now());
      await db.em().persist(debate).flush();
    },
  };
}

/** Searches for the text as typed: % and _ are not wildcards here. */
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);
