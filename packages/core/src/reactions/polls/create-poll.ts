import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/core';
import { type CreatePollInput, POLLS_PER_DEBATE_MAX, type Poll, type PollOption } from '@verdict/contracts';
import { sql } from 'kysely';
import { AppError, notFound } from '../../shared/app-error.ts';
import { assertDebateOwner, type PollResources, pollQuery } from './poll-resources.ts';
import { POLL_COLUMNS, type PollRow, toPoll } from './poll-views.ts';

/** A new open poll; each option gets an id of its own, which votes name. */
export const createPoll =
  ({ db, clock, debateAccess }: PollResources) =>
  async (userId: string, debateId: string, input: Omit<CreatePollInput, 'debateId'>): Promise<Poll> => {
    await assertDebateOwner(debateAccess, userId, debateId, 'create polls');
    return db.em().transactional(async (em) => {
      await assertRoomForAnother(em, debateId);
      const options: PollOption[] = input.options.map((label) => ({ id: randomUUID(), label }));
      const row = await pollQuery(em)
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
  };

/**
 * Refuses a poll past POLLS_PER_DEBATE_MAX. The debate's row stays locked until the insert commits, so
 * concurrent creations are counted one after another.
 */
async function assertRoomForAnother(em: EntityManager, debateId: string): Promise<void> {
  const debate = await pollQuery(em)
    .selectFrom('debates')
    .select('id')
    .where('id', '=', debateId)
    .where('deleted_at', 'is', null)
    .forNoKeyUpdate()
    .executeTakeFirst();
  if (!debate) throw notFound('Debate');
  const { n } = await pollQuery(em)
    .selectFrom('polls')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('debate_id', '=', debateId)
    .executeTakeFirstOrThrow();
  if (n >= POLLS_PER_DEBATE_MAX) {
    throw new AppError('VALIDATION_ERROR', `At most ${POLLS_PER_DEBATE_MAX} polls per debate`, {
      details: [{ path: '', message: 'Delete a poll to make room for another', code: 'too_big' }],
    });
  }
}
