import { describeChart } from '@verdict/engine';
import { describe, expect, it } from 'vitest';
import { GENERATED_LAYOUT } from './state-chart.generated.ts';
import { builtLayout, computeStateChartLayout, layoutStateChart } from './state-chart-layout.ts';

const contains = (outer: { x: number; y: number; width: number; height: number }, inner: typeof outer) =>
  inner.x >= outer.x &&
  inner.y >= outer.y &&
  inner.x + inner.width <= outer.x + outer.width &&
  inner.y + inner.height <= outer.y + outer.height;

describe("the state chart's layout", () => {
  it("is built from the engine's chart as it is now (run npm run gen:chart-layout when this fails)", async () => {
    const chart = describeChart();
    expect(GENERATED_LAYOUT.chart).toEqual(chart);
    expect(await computeStateChartLayout(chart)).toEqual(GENERATED_LAYOUT.layout);
    expect(builtLayout(chart)).toBe(GENERATED_LAYOUT.layout);
    // As the API answers it: the same chart with its keys in the schema's order.
    const { id, initial, events, states } = chart;
    expect(builtLayout({ events, id, initial, states })).toBe(GENERATED_LAYOUT.layout);
  });

  it('draws every state once, nested states inside their parent, and every transition with a target', () => {
    const { chart, layout } = GENERATED_LAYOUT;
    expect(layout.states.map((s) => s.path).sort()).toEqual(chart.states.map((s) => s.path).sort());
    const byPath = new Map(layout.states.map((s) => [s.path, s]));
    for (const state of layout.states) {
      const parent = byPath.get(state.path.slice(0, state.path.lastIndexOf('.')));
      if (parent) expect(contains(parent.box, state.box), state.path).toBe(true);
    }
    const targeted = chart.states.flatMap((s) => s.transitions.flatMap((t) => t.targets));
    const initials = chart.states.filter((s) => s.initial).length + 1;
    expect(layout.edges).toHaveLength(targeted.length + initials);
    expect(layout.edges.every((edge) => edge.d.startsWith('M'))).toBe(true);
    expect(layout.edges.find((e) => e.label?.text === 'ROUND_DONE [isLastRound]')).toMatchObject({
      source: 'running.speaking',
      target: 'judging',
    });
    // Early stop: a converged round goes to the judge too, drawn as its own edge.
    expect(layout.edges.find((e) => e.label?.text === 'ROUND_DONE [converged]')).toMatchObject({
      source: 'running.speaking',
      target: 'judging',
    });
  });

  it('makes the drawing large enough for every state and every label in it', () => {
    const { layout } = GENERATED_LAYOUT;
    const drawing = { x: 0, y: 0, width: layout.width, height: layout.height };
    for (const state of layout.states) expect(contains(drawing, state.box), state.path).toBe(true);
    for (const edge of layout.edges)
      if (edge.label) expect(contains(drawing, edge.label), edge.label.text).toBe(true);
  });

  it('lays out a chart it was not built with, once, at run time', async () => {
    const chart = {
      id: 'tiny',
      initial: 'a',
      events: ['GO'],
      states: [
        {
          path: 'a',
          type: 'atomic' as const,
          initial: null,
          invokes: [],
          transitions: [{ event: 'GO', targets: ['b'], guard: 'ready' }],
        },
        { path: 'b', type: 'final' as const, initial: null, invokes: [], transitions: [] },
      ],
    };
    expect(builtLayout(chart)).toBeNull();
    const first = layoutStateChart(chart);
    expect(layoutStateChart({ ...chart })).toBe(first);
    const laid = await first;
    expect(laid.edges.map((e) => e.label?.text)).toContain('GO [ready]');
    const [a, b] = laid.states;
    expect(a && b && a.box.y + a.box.height <= b.box.y).toBe(true);
  });
});
