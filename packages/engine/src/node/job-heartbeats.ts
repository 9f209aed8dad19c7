import type { JobHandle } from '@verdict/core';
import { Context, Effect, Layer, Schedule, type Scope } from 'effect';
import { EngineSettings } from '../services.ts';

/**
 * Tells the queue that this node's jobs are alive: one fiber heartbeats all of them together every
 * `jobHeartbeatMs`, instead of a fiber and a schedule per job (a node holds hundreds of jobs for minutes).
 */
export class JobHeartbeats extends Context.Service<
  JobHeartbeats,
  {
    /** Heartbeats `handle` until the scope closes. */
    readonly keep: (handle: JobHandle) => Effect.Effect<void, never, Scope.Scope>;
  }
>()('@verdict/engine/JobHeartbeats') {
  static readonly layer = Layer.effect(
    JobHeartbeats,
    Effect.gen(function* () {
      const { jobHeartbeatMs } = yield* EngineSettings;
      const alive = new Set<JobHandle>();
      const beatAll = Effect.sync(() => {
        for (const handle of alive) handle.heartbeat();
      });
      yield* Effect.forkScoped(Effect.repeat(beatAll, Schedule.spaced(jobHeartbeatMs)));
      return JobHeartbeats.of({
        keep: (handle) =>
          Effect.acquireRelease(
            Effect.sync(() => alive.add(handle)),
            () => Effect.sync(() => alive.delete(handle)),
          ).pipe(Effect.asVoid),
      });
    }),
  );
}
