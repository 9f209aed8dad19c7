import { type DebateEventResources, eventQuery } from './event-resources.ts';

/** Whether `attempt` is still the debate's and the debate is not deleted: what a follower waits on. */
export const isCurrent =
  ({ db }: DebateEventResources) =>
  async (debateId: string, attempt: number): Promise<boolean> =>
    (await eventQuery(db.em())
      .selectFrom('debates')
      .select('id')
      .where('id', '=', debateId)
      .where('attempt', '=', attempt)
      .where('deleted_at', 'is', null)
      .executeTakeFirst()) !== undefined;
