import type { DebateMode, DebateObject, DebateStatus } from '@verdict/contracts';
import type { Database } from '../db/orm.ts';
import type { Clock } from '../shared/clock.ts';
import { offsetOf, type PageNumbers, pageOf } from '../shared/paging.ts';
import { Debate } from './debate.entity.ts';
import type { DebateAccess } from './debate-access.ts';
import { softDeleteDebate } from './debate-record.ts';
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

/**
 * Lists of debates: the caller's own, or a workspace's for its members (who may read one debate is
 * debate-access.ts's). Deleted ones are gone.
 */
export function createDebateReads(db: Database, clock: Clock, access: DebateAccess) {
  return {
    list: async (userId: string, query: DebateListQuery): Promise<DebatePage> => {
      if (query.workspaceId) await access.assertWorkspaceReader(userId, query.workspaceId);
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
        // The caller's own debates, or their workspace's: all of each (no index passed as a disclosure).
        debates: debates.map((debate) => toDebateObject(debate)),
        ...pageOf(query, total),
      };
    },

    /** Hides the debate from lists and reads, for whoever controls it. */
    softDelete: async (userId: string, id: string): Promise<void> => {
      await access.controlled(userId, id);
      await softDeleteDebate(db.em(), id, new Date(clock.now()));
    },
  };
}

/** Searches for the text as typed: % and _ are not wildcards here. */
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);
