import { Effect, Fiber, Latch, Layer, Metric, Random } from 'effect';
import { TestClock } from 'effect/testing';
import { describe, expect, it } from 'vitest';
import { engineLogLayer, type LogLevel } from '../logging.ts';
import {
  type BackgroundWorker,
  makeWakeSignal,
  supervisedPass,
  superviseWorker,
  type WakeSignal,
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
function run<A>(name: string, program: Effect.Effect<A>, advanceMs: number) {
  const lines: Line[] = [];
  const log = engineLogLayer((level, message) => lines.push({ level, message }));
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

  it("draws its jitter from Effect's Random: the lowest draw passes every 0.75 s, a high one every 1.2 s", async () => {
    const passesWith = async (draw: number) => {
      const worker = flakyWorker('scorer', 0, 1);
      const program = Effect.scoped(Effect.andThen(superviseWorker(worker.worker), Effect.never)).pipe(
        Effect.provideService(Random.Random, { nextDoubleUnsafe: () => draw, nextIntUnsafe: () => 0 }),
      );
      return (await run('scorer', program, 10_000)).metrics.passes;
    };
    // Passes at 0.75 s, 1.5 s … 9.75 s; then at 1.2 s, 2.4 s … 9.6 s.
    expect(await passesWith(0)).toBe(13);
    expect(await passesWith(0.9)).toBe(8);
  });
});

/** Runs `program` with a test clock, a fresh metric registry and a silent log. */
const withTestClock = <A>(program: Effect.Effect<A>) =>
  program.pipe(
    Effect.provide(Layer.mergeAll(TestClock.layer(), engineLogLayer())),
    Effect.provideService(Metric.MetricRegistry, new Map()),
    Effect.runPromise,
  );

/** Whether a fiber waiting on the signal's gate would pass it (within a second of test time). */
const awake = (signal: WakeSignal) =>
  Effect.gen(function* () {
    const probe = yield* Effect.forkChild(
      Effect.race(signal.gate.pipe(Effect.as(true)), Effect.sleep('1 second').pipe(Effect.as(false))),
    );
    yield* TestClock.adjust('1 second');
    return yield* Fiber.join(probe);
  });

describe('a gated background worker', () => {
  it('does not pass while its gate is closed, passes each period while it is open, and stops when it closes', async () => {
    let runs = 0;
    const latch = Latch.makeUnsafe(false);
    const worker: BackgroundWorker<never, never> = {
      name: 'gated',
      every: '1 second',
      gate: latch.await,
      pass: Effect.sync(() => ++runs),
    };
    const counts = await withTestClock(
      Effect.gen(function* () {
        const fiber = yield* Effect.forkChild(
          Effect.scoped(Effect.andThen(superviseWorker(worker), Effect.never)),
        );
        yield* TestClock.adjust('10 seconds');
        const closed = runs;
        yield* latch.open;
        yield* TestClock.adjust('10 seconds');
        const open = runs;
        yield* latch.close;
        yield* TestClock.adjust('10 seconds');
        const closedAgain = runs;
        yield* Fiber.interrupt(fiber);
        return { closed, open, closedAgain };
      }),
    );
    expect(counts.closed).toBe(0);
    // Released at once when the gate opens, then one pass per jittered period (0.75–1.25 s).
    expect(counts.open).toBeGreaterThanOrEqual(8);
    expect(counts.open).toBeLessThanOrEqual(14);
    expect(counts.closedAgain).toBe(counts.open);
  });
});

describe('a wake signal', () => {
  it('sleeps when nothing woke it since the worker looked for work, and wakes again when told', async () => {
    const states = await withTestClock(
      Effect.gen(function* () {
        const signal = yield* makeWakeSignal;
        const initially = yield* awake(signal);
        yield* signal.wake;
        const woken = yield* awake(signal);
        yield* signal.sleepUnlessWoken(signal.wakes());
        const asleep = yield* awake(signal);
        return { initially, woken, asleep };
      }),
    );
    expect(states).toEqual({ initially: false, woken: true, asleep: false });
  });

  it('stays awake when a wake came between looking for work and going to sleep', async () => {
    const stillAwake = await withTestClock(
      Effect.gen(function* () {
        const signal = yield* makeWakeSignal;
        yield* signal.wake;
        const seen = signal.wakes();
        // Work committed (and woke the signal) while the worker's look for it was under way.
        yield* signal.wake;
        yield* signal.sleepUnlessWoken(seen);
        return yield* awake(signal);
      }),
    );
    expect(stillAwake).toBe(true);
  });

  it('lets a worker that found nothing still take work queued while it looked, without another wake', async () => {
    // A lane as the webhook senders run: its claim reads the queue when it starts and answers 100 ms later.
    // Work arrives 60 ms into that read, after the lane looked and before it decides to sleep.
    const queue: string[] = [];
    const handled: { item: string; at: number }[] = [];
    const signal = await Effect.runPromise(makeWakeSignal);
    const lane: BackgroundWorker<never, never> = {
      name: 'lane',
      every: '20 millis',
      gate: signal.gate,
      pass: Effect.gen(function* () {
        const seen = signal.wakes();
        const taken = queue.splice(0);
        yield* Effect.sleep('100 millis');
        const at = yield* Effect.clockWith((clock) => clock.currentTimeMillis);
        for (const item of taken) handled.push({ item, at });
        if (taken.length === 0) yield* signal.sleepUnlessWoken(seen);
        return taken.length;
      }),
    };
    await withTestClock(
      Effect.gen(function* () {
        const fiber = yield* Effect.forkChild(
          Effect.scoped(Effect.andThen(superviseWorker(lane), Effect.never)),
        );
        yield* signal.wake;
        // The lane passes 15–25 ms in (its jittered period) and is reading the empty queue at 60 ms.
        yield* TestClock.adjust('60 millis');
        queue.push('delivery');
        yield* signal.wake;
        yield* TestClock.adjust('1 second');
        yield* Fiber.interrupt(fiber);
      }),
    );
    // The next pass (about 20 ms after the empty one ended) takes it; a lost wake would leave it queued.
    expect(handled.map((h) => h.item)).toEqual(['delivery']);
    expect(handled[0]!.at).toBeLessThan(400);
  });
});
