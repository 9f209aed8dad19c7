import type { JobHandle } from '@verdict/core';
import { Clock, Duration, Effect, Schedule } from 'effect';
import { logLine } from '../logging.ts';

/**
 * How long a job whose handler failed (a node defect, not one of the job's endings) waits before it comes back:
 * from 250 ms doubling up to 30 s, per debate. Without it a debate that breaks its handler every time came
 * straight back and the node spun on it, logging a failure each turn.
 */
export const handlerRetrySchedule = Schedule.exponential('250 millis').pipe(
  Schedule.modifyDelay(({ duration }) => Effect.succeed(Duration.min(duration, Duration.seconds(30)))),
);

type Step = (now: number, input: unknown) => Effect.Effect<readonly [unknown, Duration.Duration], unknown>;

/** The failure streaks of debates whose handler failed on this node, each stepping its own schedule. */
export type HandlerFailures = {
  /** One more failure of this debate's handler: the delay its job waits, and how long the streak is. */
  readonly failed: (debateId: string) => Effect.Effect<{ retryAfterMs: number; failures: number }>;
  /** The handler ended the job: the debate's streak is over. */
  readonly ended: (debateId: string) => Effect.Effect<void>;
};

export const makeHandlerFailures = (
  schedule: Schedule.Schedule<unknown, unknown> = handlerRetrySchedule,
): Effect.Effect<HandlerFailures> =>
  Effect.sync(() => {
    const streaks = new Map<string, { step: Step; failures: number }>();
    return {
      failed: (debateId) =>
        Effect.gen(function* () {
          let streak = streaks.get(debateId);
          if (!streak) {
            streak = { step: (yield* Schedule.toStep(schedule)) as Step, failures: 0 };
            streaks.set(debateId, streak);
          }
          streak.failures++;
          const now = yield* Clock.currentTimeMillis;
          const stepped = yield* Effect.result(streak.step(now, undefined));
          // The schedule given up (none of ours does): the longest wait, again.
          const delay = stepped._tag === 'Success' ? stepped.success[1] : Duration.seconds(30);
          return { retryAfterMs: Duration.toMillis(delay), failures: streak.failures };
        }),
      ended: (debateId) => Effect.sync(() => void streaks.delete(debateId)),
    };
  });

/** The handle, noting whether the handler acked or gave back the job itself. */
export const watchedHandle = (handle: JobHandle) => {
  let settled = false;
  const watched: JobHandle = {
    ...handle,
    ack: () => {
      settled = true;
      return handle.ack();
    },
    retry: (delayMs) => {
      settled = true;
      handle.retry(delayMs);
    },
  };
  return { handle: watched, settled: () => settled };
};

/**
 * The node's handler of one job: `handle` ends the job itself (acks it or gives it back); when it fails instead
 * (a defect, or the bus refusing the job's command subscription) that is logged with the streak it belongs to, and the job goes back to the queue after the streak's
 * delay (unless the handler had already settled it).
 */
export const handledWithBackoff =
  <E, R>(failures: HandlerFailures, handle: (job: JobHandle) => Effect.Effect<void, E, R>) =>
  (job: JobHandle): Effect.Effect<void, never, R> => {
    const { debateId } = job.job;
    const watched = watchedHandle(job);
    return handle(watched.handle).pipe(
      Effect.andThen(failures.ended(debateId)),
      Effect.catchCause((cause) =>
        Effect.gen(function* () {
          const { retryAfterMs, failures: streak } = yield* failures.failed(debateId);
          yield* logLine('error', `debate ${debateId}: job handler failed`, {
            cause,
            failures: streak,
            retryAfterMs,
          });
          if (!watched.settled()) job.retry(retryAfterMs);
        }),
      ),
    );
  };
