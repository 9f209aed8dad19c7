import type { TrendPoint } from '@verdict/contracts';
import { trend } from './score-math.ts';
import { type ScoreResources, storedScore } from './score-resources.ts';

/** The caller's daily totals over the last `days` days up to now. */
export const scoreTrend =
  (resources: ScoreResources) =>
  async (userId: string, days: number): Promise<TrendPoint[]> =>
    trend((await storedScore(resources, userId, 'daily')) ?? [], days, resources.clock.now());
