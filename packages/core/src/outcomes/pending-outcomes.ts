import type { OutcomeState } from '@verdict/contracts';
import { sql } from 'kysely';
import { type OutcomeResources, selectRecords, toRecord } from './outcome-resources.ts';

/** Outcomes still waiting for their owner: neither told, nor skipped, nor "too early". */
const AWAITING: OutcomeState[] = ['pending'];

/** Awaiting an answer: reminders already due first (soonest due first), then the oldest records. */
export const pendingOutcomes =
  ({ db, clock }: OutcomeResources) =>
  async (userId: string) => {
    const now = new Date(clock.now()).toISOString();
    const rows = await selectRecords(db.em())
      .where('o.owner_id', '=', userId)
      .where('o.status', 'in', AWAITING)
      .orderBy(sql`case when o.reminder_at <= ${now} then 0 else 1 end`)
      .orderBy('o.reminder_at', (ob) => ob.asc().nullsLast())
      .orderBy('o.created_at')
      .execute();
    return { outcomes: rows.map(toRecord) };
  };
