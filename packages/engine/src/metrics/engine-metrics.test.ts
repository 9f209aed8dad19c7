import { createMetricsRegistry } from '@verdict/core';
import { Effect } from 'effect';
import { describe, expect, it } from 'vitest';
import { EngineMetrics } from './engine-metrics.ts';

describe("an engine node's claim metrics", () => {
  it("times a first delivery's wait from its queueing, leaves a redelivery's out, and counts hand-overs by reason", async () => {
    const registry = createMetricsRegistry('engine', { processMetrics: false });
    const now = 100_000;
    const metrics = await Effect.runPromise(
      Effect.gen(function* () {
        return yield* EngineMetrics;
      }).pipe(Effect.provide(EngineMetrics.layer(registry, { active: new Map(), slots: 2 }, () => now))),
    );
    metrics.claimed({ enqueuedAt: now - 1_500, redelivered: false }, null);
    metrics.claimed({ enqueuedAt: now - 90_000, redelivered: true }, 'lease_expired');
    metrics.claimed({ redelivered: false }, 'holder_gone');
    const text = await registry.metrics();
    expect(text).toContain('verdict_engine_queue_wait_seconds_count{role="engine"} 1');
    expect(text).toContain('verdict_engine_queue_wait_seconds_sum{role="engine"} 1.5');
    expect(text).toContain('verdict_engine_queue_wait_seconds_bucket{le="1",role="engine"} 0');
    expect(text).toContain('verdict_engine_queue_wait_seconds_bucket{le="2.5",role="engine"} 1');
    expect(text).toContain('verdict_engine_lease_handovers_total{reason="lease_expired",role="engine"} 1');
    expect(text).toContain('verdict_engine_lease_handovers_total{reason="holder_gone",role="engine"} 1');
  });
});
