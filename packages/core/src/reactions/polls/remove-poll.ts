import { notFound } from '../../shared/app-error.ts';
import { assertDebateOwner, type PollResources, pollQuery } from './poll-resources.ts';

/** Deletes the poll and its votes for good. */
export const removePoll =
  ({ db, debateAccess }: PollResources) =>
  async (userId: string, debateId: string, pollId: string): Promise<void> => {
    await assertDebateOwner(debateAccess, userId, debateId, 'delete polls');
    const result = await pollQuery(db.em())
      .deleteFrom('polls')
      .where('id', '=', pollId)
      .where('debate_id', '=', debateId)
      .executeTakeFirst();
    if (result.numDeletedRows === 0n) throw notFound('Poll');
  };
