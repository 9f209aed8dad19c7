import { createMetricsRegistry } from '@verdict/core';
import { Effect, Metric } from 'effect';
import { describe, expect, it } from 'vitest';
import { bridgedMetricRegistry } from './effect-bridge.ts';

/** The lines of one family in a Prometheus text exposition, comments included. */
const linesOf = (text: string, name: string) => text.split('\n').filter((l) => l.includes(name));

describe('the Effect metrics bridge', () => {
  it("serves every Effect metric a program updates on the prom-client registry, at the scrape's values", async () => {
    const registry = createMetricsRegistry('engine', { processMetrics: false });
    const effectRegistry = bridgedMetricRegistry(registry);
    const runs = Metric.counter('verdict_test_runs_total', { description: 'Runs', incremental: true });
    const depth = Metric.gauge('verdict_test_depth', { description: 'Depth' });
    const seconds = Metric.histogram('verdict_test_seconds', {
      description: 'Waits',
      boundaries: [0.5, 2],
    });
    const run = (program: Effect.Effect<void>) =>
      Effect.runPromise(program.pipe(Effect.provideService(Metric.MetricRegistry, effectRegistry)));

    expect(await registry.metrics()).not.toContain('verdict_test_runs_total');
    await run(
      Effect.all([
        Metric.update(Metric.withAttributes(runs, { outcome: 'ok' }), 2),
        Metric.update(Metric.withAttributes(runs, { outcome: 'failed' }), 1),
        Metric.update(depth, 7),
        Metric.update(seconds, 0.1),
        Metric.update(seconds, 1),
        Metric.update(seconds, 30),
      ]).pipe(Effect.asVoid),
    );
    const text = await registry.metrics();
    expect(linesOf(text, 'verdict_test_runs_total')).toEqual([
      '# HELP verdict_test_runs_total Runs',
      '# TYPE verdict_test_runs_total counter',
      'verdict_test_runs_total{outcome="ok",role="engine"} 2',
      'verdict_test_runs_total{outcome="failed",role="engine"} 1',
    ]);
    expect(linesOf(text, 'verdict_test_depth')).toContain('verdict_test_depth{role="engine"} 7');
    expect(linesOf(text, 'verdict_test_seconds')).toEqual(
      expect.arrayContaining([
        '# TYPE verdict_test_seconds histogram',
        'verdict_test_seconds_bucket{le="0.5",role="engine"} 1',
        'verdict_test_seconds_bucket{le="2",role="engine"} 2',
        'verdict_test_seconds_bucket{le="+Inf",role="engine"} 3',
        'verdict_test_seconds_sum{role="engine"} 31.1',
        'verdict_test_seconds_count{role="engine"} 3',
      ]),
    );

    // Read at scrape time: a later update shows in the next scrape, with no new family.
    await run(Metric.update(Metric.withAttributes(runs, { outcome: 'ok' }), 3));
    expect(linesOf(await registry.metrics(), 'verdict_test_runs_total')).toContain(
      'verdict_test_runs_total{outcome="ok",role="engine"} 5',
    );
  });

  it('keeps the metrics of two registries apart', async () => {
    const first = createMetricsRegistry('engine', { processMetrics: false });
    const second = createMetricsRegistry('engine', { processMetrics: false });
    const runs = Metric.counter('verdict_test_runs_total', { incremental: true });
    await Effect.runPromise(
      Metric.update(runs, 4).pipe(Effect.provideService(Metric.MetricRegistry, bridgedMetricRegistry(first))),
    );
    bridgedMetricRegistry(second);
    expect(await first.metrics()).toContain('verdict_test_runs_total{role="engine"} 4');
    expect(await second.metrics()).not.toContain('verdict_test_runs_total');
  });
});
