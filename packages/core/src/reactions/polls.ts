import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/core';
import {
  type CreatePollInput,
  POLLS_PER_DEBATE_MAX,
  type Poll,
  type PollList,
  type PollOption,
} from '@verdict/contracts';
import { sql } from 'kysely';
import { query } from '../db/kysely.ts';
import type { Database } from '../db/orm.ts';
import type { DebateAccess } from '../debates/debate-access.ts';
import type { DebateTables } from '../debates/tables.ts';
import { AppError, notFound } from '../shared/app-error.ts';
import type { Clock } from '../shared/clock.ts';
import { POLL_COLUMNS, type PollRow, readPolls, toPoll } from './poll-views.ts';
import type { ReactionTables } from './tables.ts';

type Tables = ReactionTables & DebateTables;

/**
 * Audience polls on a debate. Its owner creates, closes and deletes them; readers of the debate see them
 * (anyone on a public debate, signed in or not) and signed-in readers vote, one choice each, until the poll
 * is closed. A private debate of someone else is FORBIDDEN, a missing or deleted one NOT_FOUND, as
 * debateAccess' audience decides; a poll of another debate is NOT_FOUND like a missing one.
 */
export function createPolls(db: Database, clock: Clock, debateAccess: DebateAccess) {
  const k = (em: EntityManager = db.em()) => query<Tables>(em);

  const assertOwner = async (userId: string, debateId: string, action: string) => {
    const { isOwner } = await debateAccess.audience(userId, debateId);
    if (!isOwner) throw new AppError('FORBIDDEN', `Only the debate's owner may ${action}`);
  };

  const onePoll = async (em: EntityManager, debateId: string, readerId: string, pollId: string) => {
    const [poll] = await readPolls(em, debateId, readerId, pollId);
    if (!poll) throw notFound('Poll');
    return poll;
  };

  /**
   * Refuses a poll past POLLS_PER_DEBATE_MAX. The debate's row stays locked until the insert commits, so
   * concurrent creations are counted one after another.
   */
  const assertRoomForAnother = async (em: EntityManager, debateId: string) => {
    const debate = await k(em)
      .selectFrom('debates')
      .select('id')
      .where('id', '=', debateId)
      .where('deleted_at', 'is', null)
      .forNoKeyUpdate()
      .executeTakeFirst();
    if (!debate) throw notFound('Debate');
    const { n } = await k(em)
      .selectFrom('polls')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('debate_id', '=', debateId)
      .executeTakeFirstOrThrow();
    if (n >= POLLS_PER_DEBATE_MAX) {
      throw new AppError('VALIDATION_ERROR', `At most ${POLLS_PER_DEBATE_MAX} polls per debate`, {
        details: [{ path: '', message: 'Delete a poll to make room for another', code: 'too_big' }],
      });
    }
  };

  return {
    /** The debate's polls, oldest first, with the reader's own choices (`readerId` null: anonymous). */
    list: async (readerId: string | null, debateId: string): Promise<PollList> => {
      await debateAccess.audience(readerId, debateId);
      return { polls: await readPolls(db.em(), debateId, readerId) };
    },

    /** A new open poll; each option gets an id of its own, which votes name. */
    create: async (
      userId: string,
      debateId: string,
      input: Omit<CreatePollInput, 'debateId'>,
    ): Promise<Poll> => {
      await assertOwner(userId, debateId, 'create polls');
      return db.em().transactional(async (em) => {
        await assertRoomForAnother(em, debateId);
        const options: PollOption[] = input.options.map((label) => ({ id: randomUUID(), label }));
        const row = await k(em)
          .insertInto('polls')
          .values({
            debate_id: debateId,
            question: input.question,
            options: sql<never>`${JSON.stringify(options)}::jsonb`,
            created_at: new Date(clock.now()),
          })
          .returning(POLL_COLUMNS)
          .executeTakeFirstOrThrow();
        return toPoll(row as PollRow, []);
      });
    },

    /**
     * The caller's choice, made or changed, and the poll after it. The poll's row is share-locked while the
     * vote is written: voters do not wait for one another, but a close waits for the votes under way, and a
     * vote after it finds the poll closed. No vote lands after its poll's close.
     */
    vote: async (userId: string, debateId: string, pollId: string, optionId: string): Promise<Poll> => {
      await debateAccess.audience(userId, debateId);
      return db.em().transactional(async (em) => {
        const poll = await k(em)
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
        const at = new Date(clock.now());
        await k(em)
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
    },

    /**
     * Closes the poll: its tallies are frozen from then on. Closing a closed poll changes nothing and
     * answers the same (its first closedAt). The poll's row is locked first, which waits for the votes under
     * way (they hold it share-locked, see vote) and holds off the next ones; only then is the time read, so
     * closedAt is never earlier than a stored vote. Every writer of a poll and its votes locks the poll's
     * row first, and nothing else before it.
     */
    close: async (userId: string, debateId: string, pollId: string): Promise<Poll> => {
      await assertOwner(userId, debateId, 'close polls');
      return db.em().transactional(async (em) => {
        const poll = await k(em)
          .selectFrom('polls')
          .select('closed_at')
          .where('id', '=', pollId)
          .where('debate_id', '=', debateId)
          .forNoKeyUpdate()
          .executeTakeFirst();
        if (!poll) throw notFound('Poll');
        if (poll.closed_at === null) {
          await k(em)
            .updateTable('polls')
            .set({ closed_at: new Date(clock.now()) })
            .where('id', '=', pollId)
            .execute();
        }
        return onePoll(em, debateId, userId, pollId);
      });
    },

    /** Deletes the poll and its votes for good. */
    remove: async (userId: string, debateId: string, pollId: string): Promise<void> => {
      await assertOwner(userId, debateId, 'delete polls');
      const result = await k()
        .deleteFrom('polls')
        .where('id', '=', pollId)
        .where('debate_id', '=', debateId)
        .executeTakeFirst();
      if (result.numDeletedRows === 0n) throw notFound('Poll');
    },
  };
}

export type Polls = ReturnType<typeof createPolls>;
