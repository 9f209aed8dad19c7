import { Context, Data, Effect, Layer, Schedule, type Scope } from 'effect';
import { elapsedReader } from '../clock.ts';
import { logLine } from '../logging.ts';
import type { CallPolicy } from '../runner/llm-call.ts';
import type { RunningDebate } from '../runner/run-debate.ts';
import { EngineSettings } from '../services.ts';

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

/** A debate the watch looks at: its actor, the count of its snapshots, and whom to tell if it stalls. */
export type Watched = {
  readonly debateId: string;
  readonly running: RunningDebate;
  readonly steps: () => number;
  readonly onStall: (stalled: Stalled) => void;
};

type Entry = { watched: Watched; seen: number; quietSince: number };

/**
 * Watches every running debate of the node from one fiber: a debate whose actor has been quiet (no new
 * snapshot: no state entered, no turn recorded) for `limitMs` while not paused is told it stalled (with a
 * log line naming where), once; a paused debate waits for its caller as long as that takes. A safety net
 * for a hang nothing else bounds (every call and write has a timeout of its own): the job then ends as
 * interrupted, and the debate goes on from its last stored step on whichever node takes the job next, or
 * fails, refunded, once interrupted too often. One fiber for all, not one per debate: a suspended fiber and
 * its schedule are a debate's largest share of the node's heap.
 */
export const stallWatch = (limitMs: number) =>
  Effect.gen(function* () {
    const now = yield* elapsedReader;
    const watching = new Set<Entry>();
    const lookAtAll = Effect.gen(function* () {
      for (const entry of watching) {
        const stalled = stallOf(entry, now(), limitMs);
        if (!stalled) continue;
        watching.delete(entry);
        const { debateId } = entry.watched;
        yield* logLine(
          'error',
          `debate ${debateId}: stalled, no step in ${stalled.quietMs} ms at ${stalled.state}`,
        );
        entry.watched.onStall(stalled);
      }
    });
    yield* Effect.forkScoped(Effect.repeat(lookAtAll, Schedule.spaced(lookEveryMs(limitMs))));
    return {
      /** Watches `watched` until the scope closes. */
      watch: (watched: Watched): Effect.Effect<void, never, Scope.Scope> =>
        Effect.acquireRelease(
          Effect.sync(() => {
            const entry: Entry = { watched, seen: watched.steps(), quietSince: now() };
            watching.add(entry);
            return entry;
          }),
          (entry) => Effect.sync(() => watching.delete(entry)),
        ).pipe(Effect.asVoid),
    };
  });

/** How often the watch looks: a tenth of the limit, between 10 ms and 5 s. */
const lookEveryMs = (limitMs: number) => Math.max(10, Math.min(5000, limitMs / 10));

/** The entry's stall if it has been quiet too long; a step or a pause starts its quiet time afresh. */
function stallOf(entry: Entry, nowMs: number, limitMs: number): Stalled | null {
  const { running, steps } = entry.watched;
  const snapshot = running.actor.getSnapshot();
  if (steps() !== entry.seen || snapshot.matches({ running: 'paused' })) {
    entry.seen = steps();
    entry.quietSince = nowMs;
    return null;
  }
  const quietMs = nowMs - entry.quietSince;
  return quietMs < limitMs ? null : new Stalled({ quietMs, state: JSON.stringify(snapshot.value) });
}

/** The node's stall watch, its limit from the node's call policy and storage tolerance. */
export class StallWatch extends Context.Service<StallWatch, Effect.Success<ReturnType<typeof stallWatch>>>()(
  '@verdict/engine/StallWatch',
) {
  static readonly layer = Layer.effect(
    StallWatch,
    Effect.gen(function* () {
      const { policy, storage } = yield* EngineSettings;
      return StallWatch.of(yield* stallWatch(stallLimitMs(policy, storage.toleranceMs)));
    }),
  );
}
