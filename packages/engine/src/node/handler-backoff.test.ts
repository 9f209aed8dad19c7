import type { JobHandle } from '@verdict/core';
import { Effect } from 'effect';
import { describe, expect, it } from 'vitest';
import { engineLogLayer, type LogLevel } from '../logging.ts';
import { handledWithBackoff, makeHandlerFailures } from './handler-backoff.ts';

/** A job as the queue hands it over, recording what the handler did with it. */
function deliveredJob(debateId: string) {
  const done = { acked: 0, retries: [] as number[] };
  const handle: JobHandle = {
    job: { debateId, attempt: 1 } as JobHandle['job'],
    redelivered: false,
    trace: {},
    heartbeat: () => {},
    ack: async () => {
      done.acked++;
    },
    retry: (delayMs) => {
      done.retries.push(delayMs);
    },
  };
  return { handle, done };
}

const breaks = () => Effect.die(new Error('cannot start this debate'));

describe('a job whose handler fails', () => {
  it('comes back later each time it fails again, up to 30 s, logged with its streak', async () => {
    const lines: { level: LogLevel; message: string; details?: Record<string, unknown> }[] = [];
    const job = deliveredJob('d1');
    await Effect.gen(function* () {
      const handler = handledWithBackoff(yield* makeHandlerFailures(), breaks);
      for (let i = 0; i < 10; i++) yield* handler(job.handle);
    }).pipe(
      Effect.provide(engineLogLayer((level, message, details) => lines.push({ level, message, details }))),
      Effect.runPromise,
    );
    expect(job.done.retries).toEqual([250, 500, 1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000]);
    expect(lines.map((line) => [line.level, line.message])).toEqual(
      Array(10).fill(['error', 'debate d1: job handler failed']),
    );
    expect(lines.map((line) => line.details?.failures)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(lines[0]?.details?.retryAfterMs).toBe(250);
  });

  it('starts a new streak once the handler ends the job, and each debate has its own', async () => {
    const first = deliveredJob('d1');
    const other = deliveredJob('d2');
    let fails = true;
    await Effect.gen(function* () {
      const handler = handledWithBackoff(yield* makeHandlerFailures(), (job: JobHandle) =>
        fails ? breaks() : Effect.promise(() => job.ack()),
      );
      yield* handler(first.handle);
      yield* handler(first.handle);
      yield* handler(other.handle);
      fails = false;
      yield* handler(first.handle);
      fails = true;
      yield* handler(first.handle);
    }).pipe(Effect.provide(engineLogLayer()), Effect.runPromise);
    expect(first.done.retries).toEqual([250, 500, 250]);
    expect(first.done.acked).toBe(1);
    expect(other.done.retries).toEqual([250]);
  });

  it('does not give back a job the handler had already acked or given back before it failed', async () => {
    const acked = deliveredJob('d1');
    const givenBack = deliveredJob('d2');
    await Effect.gen(function* () {
      const handler = handledWithBackoff(yield* makeHandlerFailures(), (job: JobHandle) =>
        job.job.debateId === 'd1'
          ? Effect.andThen(
              Effect.promise(() => job.ack()),
              breaks(),
            )
          : Effect.andThen(
              Effect.sync(() => job.retry(1000)),
              breaks(),
            ),
      );
      yield* handler(acked.handle);
      yield* handler(givenBack.handle);
    }).pipe(Effect.provide(engineLogLayer()), Effect.runPromise);
    expect(acked.done).toEqual({ acked: 1, retries: [] });
    expect(givenBack.done).toEqual({ acked: 0, retries: [1000] });
  });
});
