import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

type Props = {
  /** Everything but the size, which follows the container; a new object rebuilds the chart. */
  options: Omit<uPlot.Options, 'width' | 'height'>;
  data: uPlot.AlignedData;
  height: number;
  /** What the chart shows, for screen readers (its data should also be given as a table nearby). */
  label: string;
};

/**
 * A uPlot chart that fills its container's width, follows it as it resizes, and is destroyed with the
 * component. New data is drawn into the same chart; new options build a new one.
 */
export function UplotChart({ options, data, height, label }: Props) {
  const container = useRef<HTMLDivElement>(null);
  const chart = useRef<uPlot | null>(null);
  const latestData = useRef(data);
  latestData.current = data;

  useEffect(() => {
    const element = container.current;
    if (!element) return;
    const width = () => Math.max(200, Math.floor(element.clientWidth));
    const plot = new uPlot({ ...options, width: width(), height }, latestData.current, element);
    chart.current = plot;
    const observer = new ResizeObserver(() => plot.setSize({ width: width(), height }));
    observer.observe(element);
    return () => {
      observer.disconnect();
      plot.destroy();
      chart.current = null;
    };
  }, [options, height]);

  useEffect(() => {
    chart.current?.setData(data);
  }, [data]);

  return <div ref={container} className="chart" role="img" aria-label={label} />;
}
