import type { Poll } from '@verdict/contracts';
import { notFound } from '../../shared/app-error.ts';
import { assertDebateOwner, onePoll, type PollResources, pollQuery } from './poll-resources.ts';

/**
 * Closes the poll: its tallies are frozen from then on. Closing a closed poll changes nothing and
 * answers the same (its first closedAt). The poll's row is locked first, which waits for the votes under
 * way (they hold it share-locked, see vote-in-poll.ts) and holds off the next ones; only then is the time
 * read, so closedAt is never earlier than a stored vote. Every writer of a poll and its votes locks the
 * poll's row first, and nothing else before it.
 */
export const closePoll =
  ({ db, clock, debateAccess }: PollResources) =>
  async (userId: string, debateId: string, pollId: string): Promise<Poll> => {
    await assertDebateOwner(debateAccess, userId, debateId, 'close polls');
    return db.em().transactional(async (em) => {
      const poll = await pollQuery(em)
        .selectFrom('polls')
        .select('closed_at')
        .where('id', '=', pollId)
        .where('debate_id', '=', debateId)
        .forNoKeyUpdate()
        .executeTakeFirst();
      if (!poll) throw notFound('Poll');
      if (poll.closed_at === null) {
        await pollQuery(em)
          .updateTable('polls')
          .set({ closed_at: new Date(clock.now()) })
          .where('id', '=', pollId)
          .execute();
      }
      return onePoll(em, debateId, userId, pollId);
    });
  };
