import type { PollList } from '@verdict/contracts';
import type { PollResources } from './poll-resources.ts';
import { readPolls } from './poll-views.ts';

/** The debate's polls, oldest first, with the reader's own choices (`readerId` null: anonymous). */
export const listPolls =
  ({ db, debateAccess }: PollResources) =>
  async (readerId: string | null, debateId: string): Promise<PollList> => {
    await debateAccess.audience(readerId, debateId);
    return { polls: await readPolls(db.em(), debateId, readerId) };
  };
