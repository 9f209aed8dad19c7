import type { Scheduler } from '@verdict/core';
import { Effect, Metric } from 'effect';
import { elapsedReader } from '../clock.ts';
import { logLine } from '../logging.ts';
import { storageFailure } from '../store/errors.ts';
import type { BackgroundWorker } from './background-worker.ts';

/** How a pass takes its due runs: `batch` per call of the scheduler, more calls while the budget lasts. */
export type SchedulePassLimits = {
  /** Due runs asked of the scheduler at once (each still its own transaction). */
  batch: number;
  /**
   * A pass asks for no further batch once this long has passed (wall time: it bounds how long a stopping
   * node waits for the pass, which an injected clock does not change).
   */
  budgetMs: number;
};

/**
 * 100 runs take about 0.4 s (BENCHMARKS.md, the scheduler suite), so a pass drains about 1,000 runs per node
 * in its 5 s budget, and a node stopping mid-pass waits for at most one more batch.
 */
export const SCHEDULE_PASS_LIMITS: SchedulePassLimits = { batch: 100, budgetMs: 5_000 };

/** Due runs of schedules, by outcome: `created` (its debate made), `refused` (recorded), `failed` (rolled back). */
export const scheduledRuns = Metric.counter('verdict_scheduler_runs_total', {
  description:
    'Due runs of scheduled debates, by outcome: created, refused (a limit, recorded), failed (due again)',
  incremental: true,
});

const RUN_OUTCOMES = ['created', 'refused', 'failed'] as const;

const countRun = (outcome: (typeof RUN_OUTCOMES)[number], n = 1) =>
  Metric.update(Metric.withAttributes(scheduledRuns, { outcome }), n);

/**
 * One pass: makes the debates of the schedules that are due (core's scheduled-debates/scheduler.ts, which
 * claims each with `skip locked` and moves it on in the transaction that creates its debate), batch after
 * batch while batches come back full and the budget lasts — a backlog (1,000 schedules due at 09:00) is run
 * in this pass, not one batch per period. Returns how many due runs it handled, refused ones included.
 */
export const schedulePass = (
  scheduler: Pick<Scheduler, 'runDue'>,
  limits: SchedulePassLimits = SCHEDULE_PASS_LIMITS,
) =>
  Effect.gen(function* () {
    const elapsed = yield* elapsedReader;
    const started = elapsed();
    let handled = 0;
    for (;;) {
      const outcomes = yield* Effect.tryPromise({
        try: () => scheduler.runDue(limits.batch),
        catch: storageFailure,
      }).pipe(Effect.tapError(() => countRun('failed')));
      for (const outcome of outcomes) {
        yield* countRun(outcome.kind);
        if (outcome.kind === 'refused') {
          yield* logLine(
            'info',
            `scheduled debate ${outcome.scheduleId}: due run refused (${outcome.code}); recorded`,
          );
        }
      }
      handled += outcomes.length;
      if (outcomes.length < limits.batch || elapsed() - started >= limits.budgetMs) return handled;
    }
  });

/** Every outcome a series at 0 from the node's start, so the runs are on a scrape before the first is due. */
export const scheduledRunSeries = Effect.forEach(RUN_OUTCOMES, (outcome) => countRun(outcome, 0), {
  discard: true,
});

/** The scheduler as a background worker of every engine node. */
export const schedulerWorker = (
  scheduler: Pick<Scheduler, 'runDue'>,
  every: number,
): BackgroundWorker<Effect.Error<ReturnType<typeof schedulePass>>, never> => ({
  name: 'scheduler',
  pass: schedulePass(scheduler),
  every,
});
