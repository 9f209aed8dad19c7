import type { JobHandle } from '@verdict/core';
import { Effect, Layer } from 'effect';
import { describe, expect, it } from 'vitest';
import { settingsOf } from '../layers.ts';
import { EngineSettings } from '../services.ts';
import { JobHeartbeats } from './job-heartbeats.ts';

const handleOf = (debateId: string) => {
  const beats = { n: 0 };
  const handle: JobHandle = {
    job: { debateId, attempt: 1 } as JobHandle['job'],
    redelivered: false,
    trace: {},
    heartbeat: () => {
      beats.n++;
    },
    ack: async () => {},
    retry: () => {},
  };
  return { handle, beats };
};

const settings = Layer.succeed(
  EngineSettings,
  settingsOf({ slots: 1, jobAckWaitMs: 1500, leaseMs: 6000 } as Parameters<typeof settingsOf>[0]),
);

describe('job heartbeats', () => {
  it('beats every job it keeps every third of the ack wait, and none once its scope closes', async () => {
    const a = handleOf('a');
    const b = handleOf('b');
    await Effect.gen(function* () {
      const heartbeats = yield* JobHeartbeats;
      yield* Effect.scoped(
        Effect.gen(function* () {
          yield* heartbeats.keep(a.handle);
          yield* heartbeats.keep(b.handle);
          yield* Effect.sleep('1600 millis');
        }),
      );
      const [atEndA, atEndB] = [a.beats.n, b.beats.n];
      // Three beats at 500 ms (a third of 1.5 s) within 1.6 s, for each job: at least two on a slow machine.
      expect(atEndA).toBeGreaterThanOrEqual(2);
      expect(atEndB).toBe(atEndA);
      yield* Effect.sleep('1100 millis');
      expect([a.beats.n, b.beats.n]).toEqual([atEndA, atEndB]);
    }).pipe(Effect.provide(JobHeartbeats.layer), Effect.provide(settings), Effect.scoped, Effect.runPromise);
  });
});
