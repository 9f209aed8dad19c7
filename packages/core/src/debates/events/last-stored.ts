import { type DebateEventResources, eventQuery } from './event-resources.ts';

/** The last stored event of `attempt`, or null before the first. */
export const lastStored =
  ({ db }: DebateEventResources) =>
  async (debateId: string, attempt: number): Promise<{ seq: number; type: string } | null> =>
    (await eventQuery(db.em())
      .selectFrom('debate_event_log')
      .select(['seq', 'type'])
      .where('debate_id', '=', debateId)
      .where('attempt', '=', attempt)
      .orderBy('seq', 'desc')
      .limit(1)
      .executeTakeFirst()) ?? null;
