import { router } from '../../trpc/init.ts';
import { getCalibration } from './get-calibration.ts';
import { getCalibrationComparison } from './get-calibration-comparison.ts';
import { getDomains } from './get-domains.ts';
import { getScore } from './get-score.ts';
import { getStreaks } from './get-streaks.ts';
import { getTrend } from './get-trend.ts';

export const scoresRouter = router({
  me: getScore,
  trend: getTrend,
  calibration: getCalibration,
  calibrationComparison: getCalibrationComparison,
  domains: getDomains,
  streaks: getStreaks,
});
