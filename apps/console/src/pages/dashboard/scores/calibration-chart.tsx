import { useMemo } from 'react';
import type uPlot from 'uplot';
import { UplotChart } from '../../../components/charts/uplot-chart.tsx';
import { VisuallyHiddenTable } from '../../../components/charts/visually-hidden-table.tsx';
import { percent } from '../../../components/format.ts';
import type { Schemas } from '../../../lib/api.ts';
import { CHART_COLORS } from './chart-colors.ts';

type Bucket = Schemas['CalibrationBucket'];

const OPTIONS: Omit<uPlot.Options, 'width' | 'height'> = {
  scales: { x: { time: false, range: [0, 1] }, y: { range: [0, 1] } },
  axes: [
    {
      label: 'Predicted confidence',
      incrs: [0.1, 0.2, 0.25, 0.5],
      values: (_u, ticks) => ticks.map((t) => percent(t)),
    },
    {
      label: 'Observed accuracy',
      incrs: [0.1, 0.2, 0.25, 0.5],
      values: (_u, ticks) => ticks.map((t) => percent(t)),
    },
  ],
  series: [
    { label: 'Confidence', value: (_u, v) => (v == null ? '—' : percent(v)) },
    {
      label: 'Perfect calibration',
      stroke: CHART_COLORS.reference,
      dash: [6, 4],
      width: 1.5,
      points: { show: false },
      spanGaps: true,
      value: (_u, v) => (v == null ? '—' : percent(v)),
    },
    {
      label: 'Your verdicts',
      stroke: CHART_COLORS.primary,
      fill: CHART_COLORS.primary,
      width: 2,
      paths: () => null,
      points: { show: true, size: 10, fill: CHART_COLORS.primary, stroke: CHART_COLORS.primary },
      value: (_u, v) => (v == null ? '—' : percent(v)),
    },
  ],
  cursor: { drag: { x: false, y: false } },
};

const midpoint = (b: Bucket) => ((b.predictedRange[0] ?? 0) + (b.predictedRange[1] ?? 0)) / 2;

/** A reliability plot: how often verdicts of each confidence came true, against the diagonal. */
export function CalibrationChart({ buckets }: { buckets: Bucket[] }) {
  const chartData = useMemo<uPlot.AlignedData>(() => {
    // The diagonal needs its ends; the buckets sit between them at their midpoints.
    const xs = [0, ...buckets.map(midpoint), 1];
    return [xs, xs, [null, ...buckets.map((b) => b.actualRate), null]];
  }, [buckets]);

  return (
    <section aria-labelledby="score-calibration">
      <h2 id="score-calibration">Calibration</h2>
      {buckets.length === 0 ? (
        <p className="empty">Calibration shows once five outcomes are resolved.</p>
      ) : (
        <>
          <p className="muted small">
            Each dot is the verdicts of one confidence band: on the dashed line, they came true as often as
            they claimed; below it, they were overconfident.
          </p>
          <UplotChart
            options={OPTIONS}
            data={chartData}
            height={320}
            label={`Calibration plot of ${buckets.length} confidence bands against perfect calibration; the table that follows gives the values.`}
          />
          <VisuallyHiddenTable
            caption="Calibration by confidence band"
            headers={['Predicted confidence', 'Observed accuracy', 'Verdicts']}
            rows={buckets.map((b) => [
              `${percent(b.predictedRange[0] ?? 0)}–${percent(b.predictedRange[1] ?? 0)}`,
              percent(b.actualRate),
              b.count,
            ])}
          />
        </>
      )}
    </section>
  );
}
