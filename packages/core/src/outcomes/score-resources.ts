import type { CalibrationBucket, DecisionScore, DomainAccuracy } from '@verdict/contracts';
import { query } from '../db/kysely.ts';
import type { CoreResources } from '../resources.ts';
import type { DayTotals } from './score-math.ts';
import type { OutcomeTables } from './tables.ts';

/** What the score views use of core's resources. */
export type ScoreResources = Pick<CoreResources, 'db' | 'clock'>;

/** What the score worker stores per user (user_scores). */
type StoredScore = {
  score: DecisionScore;
  calibration: CalibrationBucket[];
  domains: DomainAccuracy[];
  daily: DayTotals[];
};

/** One column of the stored score: each view reads only its own, so its cost does not grow with the rest. */
export const storedScore = async <C extends keyof StoredScore>(
  { db }: Pick<ScoreResources, 'db'>,
  userId: string,
  column: C,
) => {
  const row = await query<OutcomeTables>(db.em())
    .selectFrom('user_scores')
    .select(column)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return (row as Partial<StoredScore> | undefined)?.[column];
};
