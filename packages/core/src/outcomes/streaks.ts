import { MILESTONES, type Streaks } from '@verdict/contracts';
import { type Kysely, sql } from 'kysely';
import { query } from '../db/kysely.ts';
import type { DebateTables } from '../debates/tables.ts';
import type { CoreResources } from '../resources.ts';
import { AppError } from '../shared/app-error.ts';
import { dayStreaks } from './streak-math.ts';

/** What the streaks use of core's resources. */
export type StreakResources = Pick<CoreResources, 'db' | 'clock'>;

/**
 * Daily-use streaks from the caller's debates that are not deleted: which UTC days saw one created, how
 * many there are, and when each milestone's debate was created. Three indexed reads of the owner's debates,
 * each of the index alone (debates_owner_live_index).
 */
export function createStreaks({ db, clock }: StreakResources) {
  const compute = async (userId: string): Promise<Streaks> => {
    const k = query<DebateTables>(db.em());
    const mine = k.selectFrom('debates').where('owner_id', '=', userId).where('deleted_at', 'is', null);
    const [days, milestones] = await Promise.all([
      daysWithDebates(k, userId),
      // Only the first debates can reach a milestone: numbered up to the last one, not the whole history.
      k
        .selectFrom(
          mine
            .select(['created_at', sql<number>`(row_number() over (order by created_at, id))::int`.as('n')])
            .orderBy('created_at')
            .orderBy('id')
            .limit(Math.max(...MILESTONES))
            .as('numbered'),
        )
        .select(['n', 'created_at'])
        .where('n', 'in', [...MILESTONES])
        .execute(),
    ]);
    const total = await mine.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow();
    const reachedAt = new Map(milestones.map((m) => [m.n, new Date(m.created_at).toISOString()]));
    const today = new Date(clock.now()).toISOString().slice(0, 10);
    const { current, longest } = dayStreaks(
      days.map((d) => d.day),
      today,
    );
    return {
      currentStreak: current,
      longestStreak: longest,
      totalDebates: total.n,
      milestones: MILESTONES.map((count) => {
        const at = reachedAt.get(count);
        return at ? { count, reached: true, reachedAt: at } : { count, reached: false };
      }),
    };
  };
  return {
    /** 500 STREAKS_ERROR when the computation itself fails (the cause is logged, never shown). */
    of: (userId: string) =>
      compute(userId).catch((cause: unknown) => {
        throw new AppError('STREAKS_ERROR', 'Streaks could not be computed', { cause });
      }),
  };
}

export type StreakReads = ReturnType<typeof createStreaks>;

/**
 * The UTC days on which the user created a debate they still have, in order. A walk from day to day (one
 * index probe each for the first debate at or after the next day's start) rather than every debate read:
 * a few hundred probes for a history of 100,000 debates over two years (debates_owner_live_index).
 */
async function daysWithDebates(k: Kysely<DebateTables>, userId: string) {
  const { rows } = await sql<{ day: string }>`
    with recursive days(day) as (
      (select (created_at at time zone 'UTC')::date from debates
        where owner_id = ${userId} and deleted_at is null order by created_at limit 1)
      union all
      select (select (d.created_at at time zone 'UTC')::date from debates d
               where d.owner_id = ${userId} and d.deleted_at is null
                 and d.created_at >= ((days.day + 1)::timestamp at time zone 'UTC')
               order by d.created_at limit 1)
        from days where days.day is not null
    )
    select to_char(day, 'YYYY-MM-DD') as day from days where day is not null`.execute(k);
  return rows;
}
