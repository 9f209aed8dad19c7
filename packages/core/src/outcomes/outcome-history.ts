import {
  type DebateDomain,
  type OutcomeHistory,
  type OutcomeHistoryQuery,
  RESOLVED_OUTCOMES,
} from '@verdict/contracts';
import { sql } from 'kysely';
import { type OutcomeResources, outcomeQuery, selectRecords, toRecord } from './outcome-resources.ts';

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
      countResolved(db.em(), userId, q.domain),
    ]);
    return { outcomes: rows.map(toRecord), limit: q.limit, offset: q.offset, total };
  };

/**
 * How many resolved outcomes the user has, those of deleted debates left out: against the few deleted
 * debates (debates_deleted_index) rather than a look-up of each outcome's debate, tens of thousands for a
 * long history.
 */
async function countResolved(
  em: Parameters<typeof outcomeQuery>[0],
  userId: string,
  domain: OutcomeHistoryQuery['domain'],
) {
  const { n } = await outcomeQuery(em)
    .selectFrom('outcomes as o')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('o.owner_id', '=', userId)
    .where('o.status', 'in', [...RESOLVED_OUTCOMES])
    .$if(domain !== undefined, (qb) => qb.where('o.domain', '=', domain as DebateDomain))
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('debates as gone')
            .select('gone.id')
            .whereRef('gone.id', '=', 'o.debate_id')
            .where('gone.deleted_at', 'is not', null),
        ),
      ),
    )
    .executeTakeFirstOrThrow();
  return n;
}
