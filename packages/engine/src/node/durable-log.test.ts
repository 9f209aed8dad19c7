import type { Bus } from '@verdict/core';
import { Effect, Fiber, Layer } from 'effect';
import { describe, expect, it } from 'vitest';
import { settingsOf } from '../layers.ts';
import { EngineBus, EngineSettings } from '../services.ts';
import { AttemptLog } from '../store/attempt-log.ts';
import { AttemptOutcome } from '../store/attempt-outcome.ts';
import type { DebateOutcome } from '../store/records.ts';
import { openDurableLog } from './durable-log.ts';

const lease = { debateId: 'd1', attempt: 1, epoch: 1 };
const outcome = { status: 'completed' } as DebateOutcome;

/** A bus whose publishes wait until the test takes it down, and fail from then on: an outage that lasts. */
function busThatGoesDown() {
  const waiting: ((error: Error) => void)[] = [];
  const published: number[] = [];
  let down = false;
  const bus = {
    events: {
      publish: (event: { seq: number }) =>
        new Promise<void>((_resolve, reject) => {
          published.push(event.seq);
          if (down) reject(new Error('no answer from the bus'));
          else waiting.push(reject);
        }),
    },
  } as unknown as Bus;
  const goDown = () => {
    down = true;
    for (const reject of waiting.splice(0)) reject(new Error('no answer from the bus'));
  };
  return { bus, published, goDown };
}

const layers = (bus: Bus, finishes: string[]) =>
  Layer.mergeAll(
    Layer.succeed(AttemptLog, {
      persist: () => Effect.void,
    } as unknown as AttemptLog['Service']),
    Layer.succeed(AttemptOutcome, {
      finish: () => Effect.sync(() => finishes.push('finish')).pipe(Effect.as(true)),
    }),
    Layer.succeed(EngineBus, bus),
    Layer.succeed(
      EngineSettings,
      // An outage longer than this is the log's failure.
      settingsOf({ slots: 1, storageToleranceMs: 300 } as Parameters<typeof settingsOf>[0]),
    ),
  );

describe('the durable log', () => {
  it('fails a finish asked for while the batch before it was failing, instead of leaving it waiting', async () => {
    const { bus, published, goDown } = busThatGoesDown();
    const failures: string[] = [];
    const finishes: string[] = [];
    const ended = await Effect.gen(function* () {
      const log = yield* openDurableLog({
        lease,
        afterSeq: 0,
        storedKeys: [],
        snapshot: () => null,
        onFailure: (failure) => failures.push(failure._tag),
      });
      log.emit({ type: 'debate.started', data: {} } as never);
      // The writer stores the first batch and waits on its publish while the debate runs to its end.
      while (published.length === 0) yield* Effect.yieldNow;
      log.emit({ type: 'debate.failed', data: {} } as never);
      const finishing = yield* Effect.forkScoped(log.finish(outcome));
      yield* Effect.yieldNow;
      goDown();
      return yield* Effect.result(Fiber.join(finishing).pipe(Effect.timeout('2 seconds')));
    }).pipe(Effect.scoped, Effect.provide(layers(bus, finishes)), Effect.runPromise);

    expect(ended._tag).toBe('Failure');
    expect(JSON.stringify(ended)).toContain('BusUnavailable');
    expect(failures).toEqual(['BusUnavailable']);
    // Nothing past the failed batch is stored: the next holder restores from it.
    expect(finishes).toEqual([]);
  });

  it('finishes as usual when the bus answers', async () => {
    const finishes: string[] = [];
    const bus = { events: { publish: async () => {} } } as unknown as Bus;
    const written = await Effect.gen(function* () {
      const log = yield* openDurableLog({
        lease,
        afterSeq: 0,
        storedKeys: [],
        snapshot: () => null,
        onFailure: () => {},
      });
      log.emit({ type: 'debate.started', data: {} } as never);
      log.emit({ type: 'debate.failed', data: {} } as never);
      return yield* log.finish(outcome).pipe(Effect.timeout('2 seconds'));
    }).pipe(Effect.scoped, Effect.provide(layers(bus, finishes)), Effect.runPromise);
    expect(written).toEqual({ stored: true, published: true });
    expect(finishes).toEqual(['finish']);
  });
});
