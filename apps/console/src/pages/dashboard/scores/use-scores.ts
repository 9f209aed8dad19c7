import { useEffect } from 'react';
import { data, rest } from '../../../lib/api.ts';
import { useLoad } from '../../../lib/use-load.ts';

/** Scores are recalculated asynchronously after an outcome is told: read again a few times after arriving. */
const POLLS_AFTER_ARRIVAL = 5;
const POLL_INTERVAL_MS = 2_000;

/** The four score reads of the page, loaded together so that they always agree with one another. */
export function useScores() {
  const scores = useLoad(async (signal) => {
    const [score, calibration, trend, domains] = await Promise.all([
      data(rest.GET('/api/scores/me', { signal })),
      data(rest.GET('/api/scores/me/calibration', { signal })),
      data(rest.GET('/api/scores/me/trend', { params: { query: { days: 90 } }, signal })),
      data(rest.GET('/api/scores/me/domains', { signal })),
    ]);
    return { score, calibration, trend, domains, readAt: new Date() };
  }, []);
  const { reload } = scores;
  useEffect(() => {
    let polls = 0;
    const timer = setInterval(() => {
      polls += 1;
      reload();
      if (polls >= POLLS_AFTER_ARRIVAL) clearInterval(timer);
    }, POLL_INTERVAL_MS);
    return () => clearInterval(timer);
  }, [reload]);
  return scores;
}

export type ScoresData = NonNullable<ReturnType<typeof useScores>['data']>;
