import { type OutcomeHistory, type OutcomeHistoryQuery, RESOLVED_OUTCOMES } from '@verdict/contracts';
import { sql } from 'kysely';
import { type OutcomeResources, selectRecords, toRecord } from './outcome-resources.ts';

/** Resolved outcomes, most recently resolved first, a page at a time with the total. */
export const outcomeHistory =
  ({ db }: OutcomeResources) =>
  async (userId: string, q: OutcomeHistoryQuery): Promise<OutcomeHistory> => {
    let base = selectRecords(db.em())
      .where('o.owner_id', '=', userId)
      .where('o.status', 'in', [...RESOLVED_OUTCOMES]);
    if (q.domain) base = base.where('o.domain', '=', q.domain);
    const [rows, total] = await Promise.all([
      base.orderBy('o.recorded_at', 'desc').orderBy('o.debate_id').limit(q.limit).offset(q.offset).execute(),
      base.clearSelect().select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
    ]);
    return { outcomes: rows.map(toRecord), limit: q.limit, offset: q.offset, total: total.n };
  };
