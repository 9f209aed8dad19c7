import { useCallback, useEffect, useMemo, useState } from 'react';
import { Link } from 'wouter';
import {
  builtLayout,
  type LaidOutChart,
  layoutStateChart,
} from '../../components/diagram/state-chart-layout.ts';
import { StateChartSvg } from '../../components/diagram/state-chart-svg.tsx';
import { isNotFound, messageOf } from '../../lib/api.ts';
import { clockTime } from './chart-format.ts';
import { buildTimeline, type ChartEvent } from './chart-moments.ts';
import { momentTitle, TimelineList } from './chart-timeline.tsx';
import { TranscriptSoFar } from './chart-transcript.tsx';
import { type StateChartAnswer, useStateChart } from './use-state-chart.ts';

/**
 * The state-chart debugger: the engine's machine drawn from its own description, and the debate's history
 * and events as a timeline to scrub. The diagram shows the state at the chosen moment, the transcript the
 * turns spoken by then. While the debate is live the page follows its latest moment, unless the reader
 * has gone back in time.
 */
export default function StateChartPage({ id }: { id: string }) {
  const { chart, events, error } = useStateChart(id);
  const laid = useChartLayout(chart?.chart);
  if (!chart) {
    if (error) return <Failure error={error} />;
    return <p className="loading">Loading the state chart…</p>;
  }
  return (
    <section className="chart-page">
      <h1>State chart</h1>
      <nav className="controls" aria-label="Debate views">
        <Link href={`/debates/${id}`}>Debate</Link>
        <Link href={`/debates/${id}/graph`}>Argument graph</Link>
      </nav>
      <p>
        <StateBadge live={chart.current.live} state={chart.current.state} /> Now in{' '}
        <strong>{chart.current.state}</strong>
        {chart.attempt && chart.attempt > 1 ? `, attempt ${chart.attempt}` : ''}.
      </p>
      {error !== undefined && <p className="error">Could not refresh: {messageOf(error)}</p>}
      <Debugger id={id} chart={chart} events={events} laid={laid} />
    </section>
  );
}

/**
 * Whether the chart shows the debate as it runs now or as it was last stored: live while an engine node
 * runs it; otherwise finished, or not running at the moment (waiting, paused between nodes, or stopped).
 */
function StateBadge({ live, state }: { live: boolean; state: string }) {
  if (live) return <span className="badge running">live</span>;
  if (state === 'completed' || state === 'failed') return <span className="badge">finished</span>;
  return <span className="badge">not running right now: shown as last saved</span>;
}

function Failure({ error }: { error: unknown }) {
  return (
    <section>
      <h1>State chart</h1>
      <p className="error" role="alert">
        {isNotFound(error) ? 'Debate not found.' : messageOf(error)}
      </p>
    </section>
  );
}

/**
 * The layout of the machine: the one built with the console when the engine's chart is the same (at once,
 * in the first render), otherwise made by ELK once per chart (the layout module keeps it for every debate).
 */
function useChartLayout(chart: StateChartAnswer['chart'] | undefined) {
  const key = chart ? JSON.stringify(chart) : '';
  // biome-ignore lint/correctness/useExhaustiveDependencies: the chart's content (key) decides, not its identity
  const built = useMemo(() => (chart ? builtLayout(chart) : null), [key]);
  const [laid, setLaid] = useState<{ key: string; chart: LaidOutChart } | { key: string; error: unknown }>();
  // biome-ignore lint/correctness/useExhaustiveDependencies: the chart's content (key) decides, not its identity
  useEffect(() => {
    if (!chart || built) return;
    let current = true;
    layoutStateChart(chart).then(
      (result) => current && setLaid({ key, chart: result }),
      (error: unknown) => current && setLaid({ key, error }),
    );
    return () => {
      current = false;
    };
  }, [key]);
  if (built) return { key, chart: built };
  return laid?.key === key ? laid : undefined;
}

function Debugger({
  id,
  chart,
  events,
  laid,
}: {
  id: string;
  chart: StateChartAnswer;
  events: ChartEvent[];
  laid: ReturnType<typeof useChartLayout>;
}) {
  const timeline = useMemo(() => buildTimeline(chart.history, events), [chart.history, events]);
  const last = timeline.moments.length - 1;
  // null follows the latest moment; a number holds the moment the reader chose.
  const [pinned, setPinned] = useState<number | null>(null);
  const index = pinned === null ? last : Math.min(pinned, last);
  const choose = useCallback((next: number) => setPinned(next >= last ? null : Math.max(0, next)), [last]);
  const moment = timeline.moments[index];
  // A debate with no stored history (it never started) is where its status says.
  const active = chart.history.length === 0 ? chart.current.state : (timeline.stateAt[index] ?? null);
  const previous = timeline.previousStateAt[index] ?? null;
  const turns = timeline.turns.slice(0, timeline.turnsAt[index] ?? 0);

  return (
    <>
      <div className="chart-workspace">
        {/* Focusable, so a keyboard can scroll a chart wider than the page (the region's own scrollbars). */}
        {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take focus to be scrolled by keyboard */}
        <section className="diagram-scroll" tabIndex={0} aria-label="State chart diagram">
          {laid && 'chart' in laid ? (
            <StateChartSvg chart={laid.chart} active={active} previous={previous} />
          ) : laid && 'error' in laid ? (
            <p className="error">Could not lay the chart out: {messageOf(laid.error)}</p>
          ) : (
            <p className="loading">Laying the chart out…</p>
          )}
        </section>
        <TranscriptSoFar debateId={id} turns={turns} />
      </div>
      <section className="timeline-panel" aria-labelledby="moments-heading">
        <h2 id="moments-heading">Moments</h2>
        {last < 0 ? (
          <p className="muted">Nothing recorded yet.</p>
        ) : (
          <>
            <div className="timeline-controls">
              <button type="button" className="secondary" onClick={() => choose(0)} disabled={index <= 0}>
                First
              </button>
              <button
                type="button"
                className="secondary"
                onClick={() => choose(index - 1)}
                disabled={index <= 0}
                aria-label="Previous moment"
              >
                ◀ Previous
              </button>
              <input
                type="range"
                aria-label="Timeline"
                min={0}
                max={last}
                step={1}
                value={index}
                aria-valuetext={moment ? `${index + 1} of ${last + 1}: ${momentTitle(moment)}` : undefined}
                onChange={(e) => choose(Number(e.currentTarget.value))}
              />
              <button
                type="button"
                className="secondary"
                onClick={() => choose(index + 1)}
                disabled={index >= last}
                aria-label="Next moment"
              >
                Next ▶
              </button>
              <button
                type="button"
                className="secondary"
                onClick={() => choose(last)}
                disabled={pinned === null}
              >
                {chart.current.live ? 'Follow live' : 'Latest'}
              </button>
            </div>
            <p className="timeline-status" aria-live="polite" aria-atomic="true">
              {moment && (
                <>
                  Moment {index + 1} of {last + 1}, {clockTime(moment.at)}: {momentTitle(moment)}
                  {active ? ` — state ${active}` : ''}
                  {pinned === null && chart.current.live ? ' (following live)' : ''}
                </>
              )}
            </p>
            <TimelineList moments={timeline.moments} selected={index} onSelect={choose} />
          </>
        )}
      </section>
    </>
  );
}
