import { useEffect, useState } from 'react';
import { client, data, isNotFound, rest, type Schemas } from '../../lib/api.ts';
import type { ChartEvent } from './chart-moments.ts';

export type StateChartAnswer = Schemas['DebateStateChart'];

const FINAL_STATES = new Set(['completed', 'failed']);
/** Events after which the machine is in another state: the chart is read again to learn its history. */
const MOVING_EVENTS = new Set([
  'debate.started',
  'debate.paused',
  'debate.resumed',
  'synthesis.started',
  'debate.completed',
  'debate.failed',
]);
/**
 * Every request counts against the account's per-minute budget (10 on the free plan), so the chart is
 * read again at most this often; the events in between come from the stream, which has a budget of its own.
 */
const MIN_READ_GAP_MS = 2500;
const RETRY_MS = 5000;

const readChart = (id: string, signal?: AbortSignal) =>
  data(rest.GET('/api/debates/{id}/statechart', { params: { path: { id } }, ...(signal ? { signal } : {}) }));

/**
 * The first read of a page, started while it renders rather than once it is shown: React holds a page's
 * first appearance back a little after its loading fallback, and the read need not wait for that. Whatever
 * mounts the page within a moment of that render takes this read instead of making another.
 */
const FIRST_READ_FRESH_MS = 2000;
const firstReads = new Map<string, { read: Promise<StateChartAnswer>; startedAt: number }>();
function startFirstRead(id: string) {
  const known = firstReads.get(id);
  if (known && Date.now() - known.startedAt < FIRST_READ_FRESH_MS) return;
  const read = readChart(id);
  read.catch(() => {}); // the effect that takes it over reports the failure
  firstReads.set(id, { read, startedAt: Date.now() });
}
function takeFirstRead(id: string, signal: AbortSignal): Promise<StateChartAnswer> {
  const known = firstReads.get(id);
  return known && Date.now() - known.startedAt < FIRST_READ_FRESH_MS ? known.read : readChart(id, signal);
}

export type LiveStateChart = {
  chart: StateChartAnswer | undefined;
  /** The stored events and those streamed since the chart was read, in order. */
  events: ChartEvent[];
  error: unknown;
};

/**
 * The debate's state chart, kept current while the debate can still move: its stream brings each event as
 * it happens, and the chart (history and stored events) is read again after the events that change the
 * machine's state, and once the debate has finished. Streamed events carry the time they arrived until the
 * next read brings the stored time.
 */
export function useStateChart(id: string): LiveStateChart {
  startFirstRead(id);
  const [state, setState] = useState<{
    chart: StateChartAnswer | undefined;
    streamed: ChartEvent[];
    error: unknown;
  }>({ chart: undefined, streamed: [], error: undefined });
  useEffect(() => {
    const controller = new AbortController();
    const { signal } = controller;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let lastReadAt = 0;
    let streaming = false;
    let finished = false;

    const read = async () => {
      timer = undefined;
      const first = lastReadAt === 0;
      lastReadAt = Date.now();
      try {
        const chart = await (first ? takeFirstRead(id, signal) : readChart(id, signal));
        if (signal.aborted) return;
        const lastSeq = chart.events?.at(-1)?.seq ?? 0;
        setState((s) => ({ chart, streamed: s.streamed.filter((e) => e.seq > lastSeq), error: undefined }));
        finished = FINAL_STATES.has(chart.current.state);
        if (!finished && !streaming) void follow(lastSeq);
      } catch (error) {
        if (signal.aborted) return;
        setState((s) => ({ ...s, error }));
        if (!isNotFound(error)) readSoon(RETRY_MS);
      }
    };
    const readSoon = (delay = Math.max(0, lastReadAt + MIN_READ_GAP_MS - Date.now())) => {
      if (timer === undefined && !signal.aborted) timer = setTimeout(read, delay);
    };
    const follow = async (afterSeq: number) => {
      streaming = true;
      try {
        for await (const event of client.debates.stream(id, { signal, lastEventId: String(afterSeq) })) {
          const streamed: ChartEvent = {
            seq: event.id,
            type: event.type,
            data: event.data as Record<string, unknown>,
            at: new Date().toISOString(),
          };
          setState((s) => ({ ...s, streamed: [...s.streamed, streamed] }));
          if (MOVING_EVENTS.has(event.type)) readSoon();
        }
      } catch (error) {
        if (!signal.aborted) setState((s) => ({ ...s, error }));
      } finally {
        streaming = false;
      }
      // The stream ended (the debate finished, or it gave up reconnecting): the last read says where it is.
      if (!signal.aborted && !finished) readSoon();
    };

    setState({ chart: undefined, streamed: [], error: undefined });
    void read();
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [id]);

  const stored = state.chart?.events ?? [];
  const lastStored = stored.at(-1)?.seq ?? 0;
  const events =
    state.streamed.length > 0 ? [...stored, ...state.streamed.filter((e) => e.seq > lastStored)] : stored;
  return { chart: state.chart, events, error: state.error };
}
