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
    // The page's ids first, then their rows: walking past `offset` debates then reads only an index (an
    // index-only scan where one covers the filter and order), not each skipped debate's row. Each read in
    // a context of its own, so the ids' partly loaded entities never stand in for the whole rows; all
    // three where read routing sends the caller's reads.
    const { debates, total } = await readAs(resources, userId, async (db) => {
      const [page, count] = await Promise.all([
        db.em().find(Debate, where, {
          fields: ['id'],
          orderBy: { [query.sortBy]: query.sortOrder, id: query.sortOrder },
          limit: query.limit,
          offset: offsetOf(query),
        }),
        db.em().count(Debate, where),
      ]);
      const ids = page.map((debate) => debate.id);
      const rows = ids.length ? await db.em().find(Debate, { id: { $in: ids } }) : [];
      const byId = new Map(rows.map((debate) => [debate.id, debate]));
      return { debates: ids.flatMap((id) => byId.get(id) ?? []), total: count };
    });
    return {
      // The caller's own debates, or their workspace's: all of each (no index passed as a disclosure).
      debates: debates.map((debate) => toDebateObject(debate)),
      ...pageOf(query, total),
    };
  };

/** Searches for the text as typed: % and _ are not wildcards here. */
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);
