import type { CalibrationBucket } from '@verdict/contracts';
import { type ScoreResources, storedScore } from './score-resources.ts';

/** The caller's stored calibration buckets (none before any refresh). */
export const scoreCalibration =
  (resources: ScoreResources) =>
  async (userId: string): Promise<CalibrationBucket[]> =>
    (await storedScore(resources, userId, 'calibration')) ?? [];
