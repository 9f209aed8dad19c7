import type { DebateMode, DebateObject, DebateStatus } from '@verdict/contracts';
import { readAs } from '../replica/read-as.ts';
import { offsetOf, type PageNumbers, pageOf } from '../shared/paging.ts';
import { Debate } from './debate.entity.ts';
import type { DebateReadResources } from './debate-resources.ts';
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

/** A page of the caller's own debates, or of a workspace's for its members; deleted ones are gone. */
export const listDebates =
  (resources: DebateReadResources) =>
  async (userId: string, query: DebateListQuery): Promise<DebatePage> => {
    const { access } = resources;
    if (query.workspaceId) await access.assertWorkspaceReader(userId, query.workspaceId);
    const where = {
      ...(query.workspaceId ? { workspace: query.workspaceId } : { owner: userId }),
      deletedAt: null,
      ...(query.status ? { status: query.status } : {}),
      ...(query.mode ? { mode: query.mode } : {}),
      ...(query.search ? { question: { $ilike: `%${escapeLike(query.search)}%` } } : {}),
    };
    const [debates, total] = await readAs(resources, userId, (db) =>
      db.em().findAndCount(Debate, where, {
        orderBy: { [query.sortBy]: query.sortOrder, id: query.sortOrder },
        limit: query.limit,
        offset: offsetOf(query),
      }),
    );
    return {
      // The caller's own debates, or their workspace's: all of each (no index passed as a disclosure).
      debates: debates.map((debate) => toDebateObject(debate)),
      ...pageOf(query, total),
    };
  };

/** Searches for the text as typed: % and _ are not wildcards here. */
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);
