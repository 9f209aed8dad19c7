import { router } from '../../trpc/init.ts';
import { getCalibration } from './get-calibration.ts';
import { getDomains } from './get-domains.ts';
import { getScore } from './get-score.ts';
import { getStreaks } from './get-streaks.ts';
import { getTrend } from './get-trend.ts';

export const scoresRouter = router({
  me: getScore,
  trend: getTrend,
  calibration: getCalibration,
  domains: getDomains,
  streaks: getStreaks,
});
