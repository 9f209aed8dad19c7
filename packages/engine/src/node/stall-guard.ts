import { Data, Effect, Schedule } from 'effect';
import { elapsedReader } from '../clock.ts';
import type { CallPolicy } from '../runner/llm-call.ts';
import type { RunningDebate } from '../runner/run-debate.ts';

/** A running debate's actor made no step for longer than any step takes when nothing is wrong. */
export class Stalled extends Data.TaggedError('Stalled')<{
  readonly quietMs: number;
  readonly state: string;
}> {}

/**
 * The longest a running debate goes without a step when nothing is wrong, doubled. Its longest step is the
 * judge's: one call with every retry the policy allows (each attempt its full timeout, then the back-off),
 * then the verdict's calibration and the turn's store, each bounded by the storage tolerance.
 */
export function stallLimitMs(policy: CallPolicy, storageToleranceMs: number): number {
  const backoffs = policy.backoffMs * (2 ** policy.retries - 1);
  const oneCall = (policy.retries + 1) * policy.timeoutMs + backoffs;
  return 2 * (oneCall + 2 * storageToleranceMs);
}

/**
 * Fails with `Stalled` once the actor has been quiet (no new snapshot: no state entered, no turn recorded)
 * for `limitMs` while not paused; a paused debate waits for its caller as long as that takes. A safety net
 * for a hang nothing else bounds (every call and write has a timeout of its own): the job then ends as
 * interrupted, and the debate goes on from its last stored step on whichever node takes the job next, or
 * fails, refunded, once interrupted too often. `steps` counts the actor's snapshots.
 */
export const stallGuard = (running: RunningDebate, steps: () => number, limitMs: number) =>
  Effect.gen(function* () {
    const now = yield* elapsedReader;
    let seen = steps();
    let quietSince = now();
    const look = Effect.suspend(() => {
      const snapshot = running.actor.getSnapshot();
      if (steps() !== seen || snapshot.matches({ running: 'paused' })) {
        seen = steps();
        quietSince = now();
        return Effect.void;
      }
      const quietMs = now() - quietSince;
      return quietMs < limitMs
        ? Effect.void
        : Effect.fail(new Stalled({ quietMs, state: JSON.stringify(snapshot.value) }));
    });
    return yield* Effect.repeat(look, Schedule.spaced(Math.max(10, Math.min(5000, limitMs / 10)))).pipe(
      Effect.andThen(Effect.never),
    );
  });
