import { memo } from 'react';
import { ArrowDefs } from './arrow-defs.tsx';
import { LINE_HEIGHT } from './geometry.ts';
import type { LaidOutChart, StateBox, TransitionEdge } from './state-chart-layout.ts';

const isWithin = (path: string, ancestor: string) => path === ancestor || path.startsWith(`${ancestor}.`);

/**
 * The machine as laid out: states as boxes (compound ones containing their children), transitions as
 * labelled arrows. The state current at the chosen moment has a thick border and a "current" tag, and the
 * transition that led there is drawn heavier.
 */
export const StateChartSvg = memo(function StateChartSvg({
  chart,
  active,
  previous,
}: {
  chart: LaidOutChart;
  active: string | null;
  /** The state before `active`, to mark the transition taken. */
  previous: string | null;
}) {
  const taken = (edge: TransitionEdge) =>
    active !== null &&
    previous !== null &&
    previous !== active &&
    isWithin(previous, edge.source) &&
    isWithin(active, edge.target);
  return (
    <svg
      className="diagram state-chart"
      aria-label="State chart"
      viewBox={`0 0 ${Math.ceil(chart.width)} ${Math.ceil(chart.height)}`}
      width={Math.ceil(chart.width)}
      height={Math.ceil(chart.height)}
    >
      <title>State chart</title>
      <ArrowDefs />
      {chart.states.map((state) => (
        <StateNode
          key={state.path}
          state={state}
          active={state.path === active}
          containsActive={active !== null && state.compound && isWithin(active, state.path)}
        />
      ))}
      {chart.initials.map((dot) => (
        <circle
          key={`${dot.x},${dot.y}`}
          className="chart-initial"
          cx={dot.x + dot.width / 2}
          cy={dot.y + dot.height / 2}
          r={dot.width / 2}
        />
      ))}
      {chart.edges.map((edge) => (
        <g key={edge.id} className={taken(edge) ? 'chart-edge taken' : 'chart-edge'}>
          <path className="edge-line" d={edge.d} markerEnd="url(#diagram-arrow)" />
          {edge.label && (
            <>
              <rect
                className="chart-edge-label-bg"
                x={edge.label.x - 2}
                y={edge.label.y}
                width={edge.label.width + 4}
                height={edge.label.height}
                rx={3}
              />
              <text className="edge-label" x={edge.label.x} y={edge.label.y + edge.label.height - 4}>
                {edge.label.text}
              </text>
            </>
          )}
        </g>
      ))}
    </svg>
  );
});

function StateNode({
  state,
  active,
  containsActive,
}: {
  state: StateBox;
  active: boolean;
  containsActive: boolean;
}) {
  const { x, y, width, height } = state.box;
  const classes = ['chart-state', state.compound ? 'compound' : 'atomic', state.type];
  if (active) classes.push('active');
  if (containsActive) classes.push('contains-active');
  return (
    <g
      className={classes.join(' ')}
      data-state={state.path}
      {...(active ? { 'data-active': 'true', 'aria-current': 'step' as const } : {})}
    >
      <rect className="state-box" x={x} y={y} width={width} height={height} rx={state.compound ? 10 : 8} />
      {state.type === 'final' && (
        <rect className="final-ring" x={x + 4} y={y + 4} width={width - 8} height={height - 8} rx={5} />
      )}
      <text className="chart-state-name" x={x + 12} y={y + 12 + LINE_HEIGHT - 3}>
        {state.name}
      </text>
      {state.lines.map((line, i) => (
        <text key={line} className="chart-state-line" x={x + 12} y={y + 12 + (i + 2) * LINE_HEIGHT - 3}>
          {line}
        </text>
      ))}
      {active && (
        <text className="chart-state-tag" x={x + 12} y={y + height - 9}>
          ◆ current state
        </text>
      )}
    </g>
  );
}
