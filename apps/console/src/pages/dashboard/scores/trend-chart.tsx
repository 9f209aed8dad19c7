import { useMemo } from 'react';
import uPlot from 'uplot';
import { UplotChart } from '../../../components/charts/uplot-chart.tsx';
import { VisuallyHiddenTable } from '../../../components/charts/visually-hidden-table.tsx';
import { formatUtcDay } from '../../../components/format.ts';
import type { Schemas } from '../../../lib/api.ts';
import { CHART_COLORS } from './chart-colors.ts';

const DAY_S = 86_400;

/**
 * The chart's columns. A trend of a day or two would stretch across a meaningless axis (uPlot widens a
 * lone time point by years), so an empty column a week before the last day keeps the axis at least a week.
 */
function columns(points: Schemas['TrendPoint'][]): uPlot.AlignedData {
  const days = points.map((p) => Date.parse(p.date) / 1000);
  const accuracy: (number | null)[] = points.map((p) => p.rollingAccuracy);
  const brier: (number | null)[] = points.map((p) => p.brierScore);
  const first = days[0];
  const last = days.at(-1);
  if (first !== undefined && last !== undefined && last - first < 7 * DAY_S) {
    days.unshift(last - 7 * DAY_S);
    accuracy.unshift(null);
    brier.unshift(null);
  }
  return [days, accuracy, brier];
}

const OPTIONS: Omit<uPlot.Options, 'width' | 'height'> = {
  // Points are UTC days: label them as such, not shifted into the reader's zone.
  tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
  scales: { x: { time: true }, accuracy: { range: [0, 100] }, brier: { range: [0, 1] } },
  axes: [
    {},
    { scale: 'accuracy', label: '1 − Brier (30-day)', values: (_u, ticks) => ticks.map((t) => `${t}%`) },
    { scale: 'brier', side: 1, label: 'Brier score', grid: { show: false } },
  ],
  series: [
    {},
    {
      label: '1 − Brier, 30-day rolling',
      scale: 'accuracy',
      stroke: CHART_COLORS.primary,
      width: 2,
      points: { show: true, size: 5 },
      value: (_u, v) => (v == null ? '—' : `${v.toFixed(1)}%`),
    },
    {
      label: 'Brier score, cumulative',
      scale: 'brier',
      stroke: CHART_COLORS.secondary,
      dash: [8, 4],
      width: 2,
      points: { show: true, size: 5 },
      value: (_u, v) => (v == null ? '—' : v.toFixed(3)),
    },
  ],
};

/** The score day by day over the last 90 days. */
export function TrendChart({ points }: { points: Schemas['TrendPoint'][] }) {
  const chartData = useMemo(() => columns(points), [points]);
  return (
    <section aria-labelledby="score-trend">
      <h2 id="score-trend">Trend</h2>
      {points.length === 0 ? (
        <p className="empty">No resolved outcome in the last 90 days.</p>
      ) : (
        <>
          <UplotChart
            options={OPTIONS}
            data={chartData}
            height={280}
            label={`Line chart of 1 − Brier and the Brier score over ${points.length} days; the table that follows gives the values.`}
          />
          <VisuallyHiddenTable
            caption="Score by day"
            headers={['Day', '1 − Brier, 30-day rolling', 'Brier score, cumulative', 'Outcomes in window']}
            rows={points.map((p) => [
              formatUtcDay(p.date),
              `${p.rollingAccuracy.toFixed(1)}%`,
              p.brierScore.toFixed(3),
              p.sampleSize,
            ])}
          />
        </>
      )}
    </section>
  );
}
