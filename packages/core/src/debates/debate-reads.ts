import type { DebateReadResources } from './debate-resources.ts';
import { listDebates } from './list-debates.ts';
import { softDeleteDebate } from './soft-delete-debate.ts';

export type { DebateListQuery, DebatePage } from './list-debates.ts';

export type DebateReads = ReturnType<typeof createDebateReads>;

/**
 * Lists of debates: the caller's own, or a workspace's for its members (who may read one debate is
 * debate-access.ts's). Deleted ones are gone. One operation a file.
 */
export function createDebateReads(resources: DebateReadResources) {
  return {
    list: listDebates(resources),
    softDelete: softDeleteDebate(resources),
  };
}
