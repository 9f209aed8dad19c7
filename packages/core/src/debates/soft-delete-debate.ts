import { softDeleteDebate as markDeleted } from './debate-record.ts';
import type { DebateReadResources } from './debate-resources.ts';

/** Hides the debate from lists and reads, for whoever controls it. */
export const softDeleteDebate =
  ({ db, clock, access }: DebateReadResources) =>
  async (userId: string, id: string): Promise<void> => {
    await access.controlled(userId, id);
    await markDeleted(db.em(), id, new Date(clock.now()));
  };
