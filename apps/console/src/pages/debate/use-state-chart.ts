import { useEffect, useState } from 'react';
import { data, isNotFound, rest, type Schemas } from '../../lib/api.ts';

export type StateChartAnswer = Schemas['DebateStateChart'];

const FINAL_STATES = new Set(['completed', 'failed']);
/** While an engine holds the debate, about as often as it moves; between nodes, less often. */
const LIVE_POLL_MS = 1000;
const RESTING_POLL_MS = 3000;

/**
 * The debate's state chart, read again while the debate can still move: every second while an engine holds
 * it, every few seconds while it waits for one, and no more once it has finished. A failed read keeps the
 * last answer and tries again on the same schedule.
 */
export function useStateChart(id: string): { chart: StateChartAnswer | undefined; error: unknown } {
  const [state, setState] = useState<{ chart: StateChartAnswer | undefined; error: unknown }>({
    chart: undefined,
    error: undefined,
  });
  useEffect(() => {
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let last: StateChartAnswer | undefined;
    const read = async () => {
      try {
        last = await data(
          rest.GET('/api/debates/{id}/statechart', {
            params: { path: { id } },
            signal: controller.signal,
          }),
        );
        if (!controller.signal.aborted) setState({ chart: last, error: undefined });
      } catch (error) {
        if (controller.signal.aborted) return;
        setState((s) => ({ chart: s.chart, error }));
        if (isNotFound(error)) return;
      }
      if (controller.signal.aborted || (last && FINAL_STATES.has(last.current.state))) return;
      timer = setTimeout(read, last?.current.live ? LIVE_POLL_MS : RESTING_POLL_MS);
    };
    setState({ chart: undefined, error: undefined });
    void read();
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [id]);
  return state;
}
