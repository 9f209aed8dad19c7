import type { StoredEvent } from '../stored-event.ts';
import { type DebateEventResources, eventQuery } from './event-resources.ts';

/** Event numbers are PostgreSQL `int`s: a reader asking past the largest one has nothing more to read. */
const LAST_POSSIBLE_SEQ = 2_147_483_647;

/** The stored events of `attempt` after `afterSeq`, in order. */
export const storedAfter =
  ({ db }: DebateEventResources) =>
  async (debateId: string, attempt: number, afterSeq: number): Promise<StoredEvent[]> =>
    afterSeq >= LAST_POSSIBLE_SEQ
      ? []
      : eventQuery(db.em())
          .selectFrom('debate_event_log')
          .select(['seq', 'type', 'data'])
          .where('debate_id', '=', debateId)
          .where('attempt', '=', attempt)
          .where('seq', '>', afterSeq)
          .orderBy('seq')
          .execute();
