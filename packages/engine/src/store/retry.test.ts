import { Effect, Fiber } from 'effect';
import { TestClock } from 'effect/testing';
import { describe, expect, it } from 'vitest';
import { LeaseLost, StorageUnavailable, storageFailure } from './errors.ts';
import { retryThroughBlips } from './retry.ts';

/** An effect that fails with `failure` the first `failures` times it runs, then succeeds; counts its runs. */
function flaky<E>(failure: E, failures: number) {
  let runs = 0;
  const effect = Effect.suspend(() => (++runs <= failures ? Effect.fail(failure) : Effect.succeed('stored')));
  return { effect, runs: () => runs };
}

const run = <A, E>(effect: Effect.Effect<A, E>, advanceMs: number) =>
  Effect.gen(function* () {
    const fiber = yield* Effect.forkChild(Effect.exit(effect));
    yield* TestClock.adjust(`${advanceMs} millis`);
    return yield* Fiber.join(fiber);
  }).pipe(Effect.provide(TestClock.layer()), Effect.runPromise);

describe('storage retry', () => {
  it('waits out a blip shorter than the tolerance: the write succeeds', async () => {
    const write = flaky(new StorageUnavailable({ cause: 'reset' }), 4);
    const exit = await run(write.effect.pipe(retryThroughBlips({ toleranceMs: 30_000 })), 5_000);
    expect(exit._tag).toBe('Success');
    expect(write.runs()).toBe(5);
  });

  it('gives up once the tolerance is spent, with the blip as the failure', async () => {
    const write = flaky(new StorageUnavailable({ cause: 'down' }), Number.POSITIVE_INFINITY);
    const exit = await run(write.effect.pipe(retryThroughBlips({ toleranceMs: 3_000 })), 60_000);
    expect(exit._tag).toBe('Failure');
    expect(JSON.stringify(exit)).toContain('StorageUnavailable');
    // 100, 200, 400, 800, 1600 ms: the sixth try would start past 3 s.
    expect(write.runs()).toBeGreaterThanOrEqual(5);
    expect(write.runs()).toBeLessThanOrEqual(7);
  });

  it('never retries a lost lease: the write fails at once', async () => {
    const write = flaky(new LeaseLost({ debateId: 'd' }), Number.POSITIVE_INFINITY);
    const exit = await run(write.effect.pipe(retryThroughBlips({ toleranceMs: 30_000 })), 60_000);
    expect(exit._tag).toBe('Failure');
    expect(write.runs()).toBe(1);
  });
});

describe('storage failures', () => {
  const failed = (code: string) => storageFailure(Object.assign(new Error(code), { code }))._tag;

  it('treats connection trouble and a shutting-down server as a blip, and bad statements as a defect', () => {
    expect(failed('ECONNREFUSED')).toBe('StorageUnavailable');
    expect(failed('57P01')).toBe('StorageUnavailable');
    expect(failed('40001')).toBe('StorageUnavailable');
    expect(failed('23505')).toBe('PermanentFailure');
    expect(failed('42601')).toBe('PermanentFailure');
    expect(storageFailure(new Error('no code'))._tag).toBe('StorageUnavailable');
    // A bug reading a row is surfaced at once, not retried for the whole tolerance.
    expect(storageFailure(new TypeError('x.toISOString is not a function'))._tag).toBe('PermanentFailure');
  });
});
