import { Effect, Fiber, Layer, Metric } from 'effect';
import { TestClock } from 'effect/testing';
import { describe, expect, it } from 'vitest';
import { EngineLog, type LogLevel } from '../services.ts';
import {
  type BackgroundWorker,
  supervisedPass,
  superviseWorker,
  workerMetrics,
} from './background-worker.ts';

type Line = { level: LogLevel; message: string };

/** A worker whose pass fails `failures` times, then handles `rows` rows each pass; counts its runs. */
function flakyWorker(name: string, failures: number, rows: number, retries?: number) {
  let runs = 0;
  const worker: BackgroundWorker<string, never> = {
    name,
    every: '1 second',
    ...(retries === undefined ? {} : { retries }),
    pass: Effect.suspend(() => (++runs <= failures ? Effect.fail('database away') : Effect.succeed(rows))),
  };
  return { worker, runs: () => runs };
}

const countOf = (metric: Metric.Metric<number, { count: number | bigint }>, worker: string) =>
  Metric.value(Metric.withAttributes(metric, { worker })).pipe(Effect.map((state) => Number(state.count)));

/**
 * Runs `program` with a test clock moved `advanceMs` ahead, a fresh metric registry and a recording log;
 * reads the worker metrics of `name` afterwards.
 */
function run<A>(name: string, program: Effect.Effect<A, never, EngineLog>, advanceMs: number) {
  const lines: Line[] = [];
  const log = Layer.succeed(
    EngineLog,
    EngineLog.of({ log: (level, message) => lines.push({ level, message }) }),
  );
  return Effect.gen(function* () {
    const fiber = yield* Effect.forkChild(program);
    yield* TestClock.adjust(`${advanceMs} millis`);
    yield* Fiber.interrupt(fiber);
    const exit = yield* Fiber.await(fiber);
    const metrics = yield* Effect.all({
      passes: countOf(workerMetrics.passes, name),
      handled: countOf(workerMetrics.handled, name),
      failures: countOf(workerMetrics.failures, name),
    });
    return { result: exit._tag === 'Success' ? exit.value : undefined, metrics, lines };
  }).pipe(
    Effect.provide(Layer.mergeAll(TestClock.layer(), log)),
    Effect.provideService(Metric.MetricRegistry, new Map()),
    Effect.runPromise,
  );
}

describe('a background worker', () => {
  it('retries a failing pass within its period and counts it once, with the rows it handled', async () => {
    const flaky = flakyWorker('scorer', 2, 7);
    const { result, metrics, lines } = await run('scorer', supervisedPass(flaky.worker), 10_000);
    expect(result).toBe(7);
    expect(flaky.runs()).toBe(3);
    expect(metrics).toEqual({ passes: 1, handled: 7, failures: 0 });
    expect(lines).toEqual([]);
  });

  it('logs a pass that fails past its retries and counts the failure, without failing', async () => {
    const broken = flakyWorker('dispatcher', Number.POSITIVE_INFINITY, 0, 2);
    const { result, metrics, lines } = await run('dispatcher', supervisedPass(broken.worker), 10_000);
    expect(result).toBe(0);
    expect(broken.runs()).toBe(3);
    expect(metrics).toEqual({ passes: 0, handled: 0, failures: 1 });
    expect(lines).toEqual([{ level: 'warn', message: 'dispatcher pass failed; the next pass tries again' }]);
  });

  it('passes once per jittered period until its scope closes, and goes on after a failed pass', async () => {
    // Fails its first pass for good (no retries), then handles 2 rows a pass.
    const worker = flakyWorker('scheduler', 1, 2, 0);
    const program = Effect.scoped(Effect.andThen(superviseWorker(worker.worker), Effect.never));
    // Ten periods of 1 s, jittered to 0.75–1.25 s each: between 8 and 13 passes.
    const { metrics } = await run('scheduler', program, 10_000);
    expect(metrics.failures).toBe(1);
    expect(metrics.passes).toBeGreaterThanOrEqual(7);
    expect(metrics.passes).toBeLessThanOrEqual(13);
    expect(metrics.handled).toBe(metrics.passes * 2);
  });
});
