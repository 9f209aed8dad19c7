import type { EntityManager } from '@mikro-orm/core';
import type { Poll, PollOption } from '@verdict/contracts';
import { AppError, notFound } from '../../shared/app-error.ts';
import { onePoll, type PollResources, pollQuery } from './poll-resources.ts';

/**
 * The caller's choice, made or changed, and the poll after it. The poll's row is share-locked while the
 * vote is written: voters do not wait for one another, but a close waits for the votes under way, and a
 * vote after it finds the poll closed. No vote lands after its poll's close.
 */
export const voteInPoll =
  ({ db, clock, debateAccess }: PollResources) =>
  async (userId: string, debateId: string, pollId: string, optionId: string): Promise<Poll> => {
    await debateAccess.audience(userId, debateId);
    return db.em().transactional(async (em) => {
      await lockOpenPollWithOption(em, debateId, pollId, optionId);
      const at = new Date(clock.now());
      await pollQuery(em)
        .insertInto('poll_votes')
        .values({ poll_id: pollId, user_id: userId, option_id: optionId, created_at: at, updated_at: at })
        .onConflict((c) =>
          c
            .columns(['poll_id', 'user_id'])
            .doUpdateSet({ option_id: optionId, updated_at: at })
            // The same choice again changes nothing, not even its time.
            .where('poll_votes.option_id', '<>', optionId),
        )
        .execute();
      return onePoll(em, debateId, userId, pollId);
    });
  };

/**
 * Share-locks the debate's poll until `em`'s transaction ends, after checking that it is there
 * (NOT_FOUND), still open (POLL_CLOSED) and offers `optionId` (VALIDATION_ERROR).
 */
async function lockOpenPollWithOption(em: EntityManager, debateId: string, pollId: string, optionId: string) {
  const poll = await pollQuery(em)
    .selectFrom('polls')
    .select(['options', 'closed_at'])
    .where('id', '=', pollId)
    .where('debate_id', '=', debateId)
    .forShare()
    .executeTakeFirst();
  if (!poll) throw notFound('Poll');
  if (poll.closed_at !== null) throw new AppError('POLL_CLOSED', 'This poll is closed');
  if (!(poll.options as PollOption[]).some((option) => option.id === optionId)) {
    throw new AppError('VALIDATION_ERROR', 'Not an option of this poll', {
      details: [{ path: 'optionId', message: 'Not an option of this poll', code: 'invalid_value' }],
    });
  }
}
