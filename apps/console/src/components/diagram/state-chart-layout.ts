import type { Schemas } from '../../lib/api.ts';
import { type ElkExtendedEdge, type ElkNode, layout } from './elk.ts';
import { transitionLabel } from './event-label.ts';
import { type Box, boxOf, type EdgePath, edgePath, LINE_HEIGHT, textWidth } from './geometry.ts';
import { GENERATED_LAYOUT } from './state-chart.generated.ts';

export type Chart = Schemas['DebateStateChart']['chart'];
type ChartState = Chart['states'][number];

/** A state as drawn: its box, its name and the lines under it (what it invokes, transitions that stay). */
export type StateBox = {
  path: string;
  name: string;
  type: ChartState['type'];
  lines: string[];
  box: Box;
  compound: boolean;
};
export type TransitionEdge = EdgePath & { id: string; source: string; target: string };
export type LaidOutChart = {
  width: number;
  height: number;
  /** Containers before what they contain, so that drawing in order paints children on top. */
  states: StateBox[];
  /** The dots that point at each level's initial state. */
  initials: Box[];
  edges: TransitionEdge[];
};

const PAD = 12;
/** Room under each atomic state's lines for the "current" tag, so highlighting never resizes the drawing. */
const TAG_ROOM = LINE_HEIGHT + 4;
const INITIAL_SIZE = 12;

const nameOf = (path: string) => path.slice(path.lastIndexOf('.') + 1);
const parentOf = (path: string) => (path.includes('.') ? path.slice(0, path.lastIndexOf('.')) : '');
const initialId = (parent: string) => `${parent}#initial`;

/** What a state shows under its name: invoked actors, then transitions that do not leave it. */
const linesOf = (state: ChartState) => [
  ...state.invokes.map((src) => `invoke ${src}`),
  ...state.transitions
    .filter((t) => t.targets.length === 0)
    .map((t) => `${transitionLabel(t.event, t.guard)} ↺`),
];

function elkGraph(chart: Chart): ElkNode {
  const byParent = new Map<string, ChartState[]>();
  for (const state of chart.states) {
    const siblings = byParent.get(parentOf(state.path)) ?? [];
    siblings.push(state);
    byParent.set(parentOf(state.path), siblings);
  }
  const initials = new Map<string, string>([['', chart.initial ?? '']]);
  for (const state of chart.states) if (state.initial) initials.set(state.path, state.initial);

  const nodesUnder = (parent: string): ElkNode[] => {
    const nodes: ElkNode[] = (byParent.get(parent) ?? []).map((state) => {
      const lines = linesOf(state);
      const width = Math.max(140, ...[state.path, ...lines].map((l) => textWidth(l) + 2 * PAD));
      const children = nodesUnder(state.path);
      if (children.length > 0) {
        const top = (1 + lines.length) * LINE_HEIGHT + 2 * PAD;
        return {
          id: state.path,
          children,
          layoutOptions: {
            'elk.padding': `[top=${top},left=${PAD},bottom=${PAD},right=${PAD}]`,
            // Wide enough for its own header, however narrow its children.
            'elk.nodeSize.constraints': '[MINIMUM_SIZE]',
            'elk.nodeSize.minimum': `(${width}, ${top + PAD})`,
          },
        };
      }
      return { id: state.path, width, height: (1 + lines.length) * LINE_HEIGHT + 2 * PAD + TAG_ROOM };
    });
    if (initials.get(parent))
      nodes.unshift({ id: initialId(parent), width: INITIAL_SIZE, height: INITIAL_SIZE });
    return nodes;
  };

  const edges: ElkExtendedEdge[] = [];
  for (const [parent, initial] of initials) {
    if (initial) edges.push({ id: `initial:${parent}`, sources: [initialId(parent)], targets: [initial] });
  }
  for (const state of chart.states) {
    state.transitions.forEach((t, i) => {
      t.targets.forEach((target, j) => {
        const text = transitionLabel(t.event, t.guard);
        edges.push({
          id: `${state.path}:${i}:${j}`,
          sources: [state.path],
          targets: [target],
          labels: [{ text, width: textWidth(text), height: LINE_HEIGHT }],
        });
      });
    });
  }
  return { id: 'root', children: nodesUnder(''), edges, layoutOptions: { 'elk.direction': 'DOWN' } };
}

function readLayout(chart: Chart, laid: ElkNode): LaidOutChart {
  const statesByPath = new Map(chart.states.map((s) => [s.path, s]));
  const states: StateBox[] = [];
  const initials: Box[] = [];
  const visit = (node: ElkNode) => {
    for (const child of node.children ?? []) {
      const state = statesByPath.get(child.id);
      if (state) {
        states.push({
          path: state.path,
          name: nameOf(state.path),
          type: state.type,
          lines: linesOf(state),
          box: boxOf(child),
          compound: (child.children?.length ?? 0) > 0,
        });
      } else {
        initials.push(boxOf(child));
      }
      visit(child);
    }
  };
  visit(laid);
  const edges = (laid.edges ?? []).map((edge) => ({
    id: edge.id,
    source: edge.sources[0] ?? '',
    target: edge.targets[0] ?? '',
    ...edgePath(edge),
  }));
  return { width: laid.width ?? 0, height: laid.height ?? 0, states, initials, edges };
}

/** Lays the chart out with ELK: at build time for the chart the engine has (see state-chart.generated.ts). */
export async function computeStateChartLayout(chart: Chart): Promise<LaidOutChart> {
  return readLayout(chart, await layout(elkGraph(chart)));
}

/** The chart as text with its keys in order: the API's answer lists them in its own order. */
const keyOf = (chart: Chart): string =>
  JSON.stringify(chart, (_key, value: unknown) =>
    value && typeof value === 'object' && !Array.isArray(value)
      ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : 1)))
      : value,
  );

const generatedKey = keyOf(GENERATED_LAYOUT.chart);

/**
 * The layout of `chart` at once, without the layout engine, when it is the chart the console was built
 * against (every debate has the same one): the first render of the debugger needs no ELK at all.
 */
export const builtLayout = (chart: Chart): LaidOutChart | null =>
  keyOf(chart) === generatedKey ? GENERATED_LAYOUT.layout : null;

/** Layouts made at run time, by chart: a chart laid out once is laid out for every debate of the page. */
const layouts = new Map<string, Promise<LaidOutChart>>();

/** The layout of any chart: the built one, or one made by ELK once (a newer engine than this console). */
export function layoutStateChart(chart: Chart): Promise<LaidOutChart> {
  const built = builtLayout(chart);
  if (built) return Promise.resolve(built);
  const key = keyOf(chart);
  let laid = layouts.get(key);
  if (!laid) {
    laid = computeStateChartLayout(chart);
    laid.catch(() => layouts.delete(key));
    layouts.set(key, laid);
  }
  return laid;
}
