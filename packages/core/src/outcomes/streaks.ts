import { MILESTONES, type Streaks } from '@verdict/contracts';
import { sql } from 'kysely';
import { query } from '../db/kysely.ts';
import type { DebateTables } from '../debates/tables.ts';
import type { CoreResources } from '../resources.ts';
import { AppError } from '../shared/app-error.ts';
import { dayStreaks } from './streak-math.ts';

/** What the streaks use of core's resources. */
export type StreakResources = Pick<CoreResources, 'db' | 'clock'>;

/**
 * Daily-use streaks from the caller's debates that are not deleted: which UTC days saw one created, how
 * many there are, and when each milestone's debate was created. Three indexed reads of the owner's debates.
 */
export function createStreaks({ db, clock }: StreakResources) {
  const compute = async (userId: string): Promise<Streaks> => {
    const k = query<DebateTables>(db.em());
    const mine = k.selectFrom('debates').where('owner_id', '=', userId).where('deleted_at', 'is', null);
    const [days, milestones] = await Promise.all([
      mine
        .select(sql<string>`to_char(created_at at time zone 'UTC', 'YYYY-MM-DD')`.as('day'))
        .distinct()
        .orderBy('day')
        .execute(),
      k
        .selectFrom(
          mine
            .select(['created_at', sql<number>`(row_number() over (order by created_at, id))::int`.as('n')])
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
