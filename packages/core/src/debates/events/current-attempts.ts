import { type DebateEventResources, eventQuery } from './event-resources.ts';

/** Debates per read when the followed attempts are looked at again: a statement's parameters stay few. */
const CURRENT_ATTEMPTS_PER_READ = 1000;

/** The current attempt of each of the debates that is not deleted. */
export const currentAttempts =
  ({ db }: DebateEventResources) =>
  async (debateIds: string[]): Promise<Map<string, number>> => {
    const current = new Map<string, number>();
    for (let from = 0; from < debateIds.length; from += CURRENT_ATTEMPTS_PER_READ) {
      const rows = await eventQuery(db.em())
        .selectFrom('debates')
        .select(['id', 'attempt'])
        .where('id', 'in', debateIds.slice(from, from + CURRENT_ATTEMPTS_PER_READ))
        .where('deleted_at', 'is', null)
        .execute();
      for (const row of rows) current.set(row.id, row.attempt);
    }
    return current;
  };
