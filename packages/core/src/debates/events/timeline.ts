import type { StoredEvent } from '../stored-event.ts';
import { type DebateEventResources, eventQuery } from './event-resources.ts';

/** A stored event with the time its batch was stored (ISO 8601): what a timeline of the debate shows. */
export type TimedEvent = StoredEvent & { at: string };

/** Every stored event of `attempt`, in order, with its time. */
export const timeline =
  ({ db }: Pick<DebateEventResources, 'db'>) =>
  async (debateId: string, attempt: number): Promise<TimedEvent[]> => {
    const rows = await eventQuery(db.em())
      .selectFrom('debate_event_log')
      .select(['seq', 'type', 'data', 'created_at'])
      .where('debate_id', '=', debateId)
      .where('attempt', '=', attempt)
      .orderBy('seq')
      .execute();
    return rows.map(({ seq, type, data, created_at }) => ({
      seq,
      type,
      data,
      at: new Date(created_at).toISOString(),
    }));
  };
