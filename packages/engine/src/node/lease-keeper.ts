import { Context, Effect, Layer, Schedule, type Scope } from 'effect';
import { logLine } from '../logging.ts';
import { EngineSettings } from '../services.ts';
import { DebateStore } from '../store/debate-store.ts';
import type { Lease } from '../store/records.ts';

/**
 * Keeps this node's leases alive: one fiber renews all of them together on every heartbeat, and tells a job
 * whose lease is gone (another node claimed the debate, or it was finished or deleted elsewhere).
 */
export class LeaseKeeper extends Context.Service<
  LeaseKeeper,
  {
    /** Renews `lease` until the scope closes; `lost` is called once if a renewal finds it gone. */
    readonly keep: (lease: Lease, lost: () => void) => Effect.Effect<void, never, Scope.Scope>;
  }
>()('@verdict/engine/LeaseKeeper') {
  static readonly layer = Layer.effect(
    LeaseKeeper,
    Effect.gen(function* () {
      const store = yield* DebateStore;
      const { heartbeatMs } = yield* EngineSettings;
      const held = new Map<string, { lease: Lease; lost: () => void }>();

      const renewAll = Effect.gen(function* () {
        const entries = [...held.values()];
        if (entries.length === 0) return;
        const stillHeld = yield* store.renew(entries.map((entry) => entry.lease));
        for (const { lease, lost } of entries) {
          // A job that ended (or claimed again) during the renewal is not this entry any more.
          if (held.get(lease.debateId)?.lease === lease && !stillHeld.has(lease.debateId)) lost();
        }
      }).pipe(
        // Safe to skip: the leases have until they expire, and the next heartbeat tries again.
        Effect.catch((error) => logLine('warn', 'lease renewal failed; retrying next heartbeat', { error })),
      );

      yield* Effect.forkScoped(
        Effect.repeat(renewAll, Schedule.spaced(heartbeatMs)).pipe(Effect.delay(heartbeatMs)),
      );

      return LeaseKeeper.of({
        keep: (lease, lost) =>
          Effect.acquireRelease(
            Effect.sync(() => held.set(lease.debateId, { lease, lost })),
            // Out of the renewal set before the lease is released, so a renewal in flight cannot extend it.
            () => Effect.sync(() => held.get(lease.debateId)?.lease === lease && held.delete(lease.debateId)),
          ).pipe(Effect.asVoid),
      });
    }),
  );
}
