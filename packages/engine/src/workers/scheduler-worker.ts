import type { Scheduler } from '@verdict/core';
import { Effect } from 'effect';
import { EngineLog } from '../services.ts';
import { storageFailure } from '../store/errors.ts';
import type { BackgroundWorker } from './background-worker.ts';

/** Due runs made per pass at most, each its own transaction; a larger backlog waits for the next period. */
const BATCH = 100;

/**
 * One pass: makes the debates of the schedules that are due (core's scheduled-debates/scheduler.ts, which
 * claims each with `skip locked` and moves it on in the transaction that creates its debate). Returns how
 * many due runs it handled, refused ones included.
 */
export const schedulePass = (scheduler: Pick<Scheduler, 'runDue'>) =>
  Effect.gen(function* () {
    const { log } = yield* EngineLog;
    const outcomes = yield* Effect.tryPromise({ try: () => scheduler.runDue(BATCH), catch: storageFailure });
    for (const outcome of outcomes) {
      if (outcome.kind === 'refused') {
        log('info', `scheduled debate ${outcome.scheduleId}: due run refused (${outcome.code}); recorded`);
      }
    }
    return outcomes.length;
  });

/** The scheduler as a background worker of every engine node. */
export const schedulerWorker = (
  scheduler: Pick<Scheduler, 'runDue'>,
  every: number,
): BackgroundWorker<Effect.Error<ReturnType<typeof schedulePass>>, EngineLog> => ({
  name: 'scheduler',
  pass: schedulePass(scheduler),
  every,
});
