import { type Clock as CoreClock, systemClock } from '@verdict/core';
import { Clock, Effect, Layer } from 'effect';

/**
 * The engine's one source of time: Effect's `Clock`, over the core's clock the node was built with. Every
 * reading of the time in the engine goes through it (`Clock.currentTimeMillis`, or the service's
 * `currentTimeMillisUnsafe` in a callback), so a test that gives the node a clock of its own dates
 * everything the node does by it: events, leases, stall checks, finishes.
 *
 * Two kinds of reading: the date of something (an event's `at`, a finish's stamp, a core function's
 * clock) is the wall time above; how long something took or has waited (a lease's margin, a stall, a
 * pass's budget) is the runtime's monotonic time, which no test's clock freezes and no wall-clock step
 * moves. Sleeps stay the runtime's own: a test's clock is read, never waited on.
 */
export function clockLayer(clock: CoreClock): Layer.Layer<never> {
  // The system clock is what Effect's default reads already (with nanoseconds for spans): nothing to replace.
  if (clock === systemClock) return Layer.empty;
  return Layer.succeed(Clock.Clock, effectClockOver(clock));
}

function effectClockOver(clock: CoreClock): Clock.Clock {
  const runtime = Clock.Clock.defaultValue();
  const nanos = () => BigInt(clock.now()) * 1_000_000n;
  return {
    currentTimeMillisUnsafe: () => clock.now(),
    currentTimeMillis: Effect.sync(() => clock.now()),
    currentTimeNanosUnsafe: nanos,
    currentTimeNanos: Effect.sync(nanos),
    monotonicTimeNanosUnsafe: () => runtime.monotonicTimeNanosUnsafe(),
    monotonicTimeNanos: runtime.monotonicTimeNanos,
    sleep: (duration) => runtime.sleep(duration),
  };
}

/** The node's wall clock as core's `Clock`, for the core functions that date what they write. */
export const coreClock: Effect.Effect<CoreClock> = Clock.clockWith((clock) =>
  Effect.succeed({ now: () => clock.currentTimeMillisUnsafe() }),
);

/** A reader of elapsed milliseconds on the runtime's monotonic clock: for durations, never for dates. */
export const elapsedReader: Effect.Effect<() => number> = Clock.clockWith((clock) =>
  Effect.succeed(() => Number(clock.monotonicTimeNanosUnsafe() / 1_000_000n)),
);

/** Milliseconds on the runtime's monotonic clock now (see `elapsedReader`). */
export const monotonicMs: Effect.Effect<number> = Effect.map(Clock.monotonicTimeNanos, (nanos) =>
  Number(nanos / 1_000_000n),
);
