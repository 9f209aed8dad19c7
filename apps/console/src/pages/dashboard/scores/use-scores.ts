import { useCallback, useEffect, useRef, useState } from 'react';
import { data, rest, type Schemas } from '../../../lib/api.ts';

const POLL_INTERVAL_MS = 1_500;
const MAX_POLLS = 8;

export type ScoresData = {
  score: Schemas['DecisionScore'];
  calibration: Schemas['CalibrationBucket'][];
  trend: Schemas['TrendPoint'][];
  domains: Schemas['DomainAccuracy'][];
  readAt: Date;
};

type State = { data: ScoresData | undefined; error: unknown; loading: boolean; catchingUp: boolean };

/**
 * The page's score reads. The score is recalculated asynchronously after an outcome is told, so on arrival
 * (and on Refresh) the score is compared with the resolved outcomes on record: while it counts fewer, only
 * the score is read again, every 1.5 s for a while; the charts and domains are read once it has caught
 * up. A free account has 10 requests a minute: nothing is read that cannot have changed.
 */
export function useScores() {
  const [state, setState] = useState<State>({
    data: undefined,
    error: undefined,
    loading: true,
    catchingUp: false,
  });
  const current = useRef<AbortController | null>(null);

  const load = useCallback(async () => {
    current.current?.abort();
    const controller = new AbortController();
    current.current = controller;
    const { signal } = controller;
    setState((s) => ({ ...s, loading: true, error: undefined }));
    try {
      const [first, history] = await Promise.all([
        data(rest.GET('/api/scores/me', { signal })),
        data(rest.GET('/api/outcomes/history', { params: { query: { limit: 1 } }, signal })),
      ]);
      let score = first;
      for (let poll = 0; score.totalResolved < history.total && poll < MAX_POLLS; poll++) {
        setState((s) => ({ ...s, catchingUp: true }));
        await new Promise((resolve) => setTimeout(resolve, POLL_INTERVAL_MS));
        if (signal.aborted) return;
        score = await data(rest.GET('/api/scores/me', { signal }));
      }
      const [calibration, trend, domains] = await Promise.all([
        data(rest.GET('/api/scores/me/calibration', { signal })),
        data(rest.GET('/api/scores/me/trend', { params: { query: { days: 90 } }, signal })),
        data(rest.GET('/api/scores/me/domains', { signal })),
      ]);
      if (signal.aborted) return;
      setState({
        data: { score, calibration, trend, domains, readAt: new Date() },
        error: undefined,
        loading: false,
        catchingUp: false,
      });
    } catch (error) {
      if (!signal.aborted) setState((s) => ({ ...s, error, loading: false, catchingUp: false }));
    }
  }, []);

  useEffect(() => {
    void load();
    return () => current.current?.abort();
  }, [load]);

  return { ...state, reload: load };
}
