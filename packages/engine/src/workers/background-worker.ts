import { Cause, Duration, Effect, Latch, Metric, Random, Schedule, type Scope } from 'effect';
import { logLine } from '../logging.ts';

/**
 * The shape of every background job an engine node runs next to its debates (the reconciler today; outcome
 * scoring, embeddings, webhook dispatch and scheduling next). Each node runs each worker; a pass claims the
 * rows it handles with `for update skip locked` and stamps or deletes them in the same statement, so many
 * nodes passing at the same moment each take different rows and none is handled twice.
 */
export type BackgroundWorker<E, R> = {
  /** Names the worker's log lines and metrics (`worker` attribute). */
  readonly name: string;
  /** One pass: claims what is due, handles it, and says how many rows it handled. */
  readonly pass: Effect.Effect<number, E, R>;
  /** The period between passes; jittered by ±25 % so nodes do not scan in lockstep. */
  readonly every: Duration.Input;
  /** Retries of a failed pass within the period, from 100 ms doubling (default three). */
  readonly retries?: number;
  /**
   * Waited on after each period, before the pass, and interruptible there (the pass is not): a worker that
   * has nothing to do until told so sleeps on it instead of passing for nothing.
   */
  readonly gate?: Effect.Effect<void>;
};

/**
 * Passes run, rows handled and passes failed, per worker (`worker` attribute): Effect metrics of the node,
 * served with its others (metrics/effect-bridge.ts). Rows handled are each worker's processed count: the
 * embeddings made, the attachments extracted, the outbox rows fanned out, the webhooks sent …
 */
export const workerMetrics = {
  passes: Metric.counter('verdict_engine_worker_passes_total', {
    description: 'Background worker passes that ran to the end, by worker',
    incremental: true,
  }),
  handled: Metric.counter('verdict_engine_worker_rows_handled_total', {
    description: 'Rows background workers handled (embeddings made, attachments extracted, ...), by worker',
    incremental: true,
  }),
  failures: Metric.counter('verdict_engine_worker_pass_failures_total', {
    description: 'Background worker passes that still failed after their retries, by worker',
    incremental: true,
  }),
};

/**
 * One pass as the supervisor runs it: retried by the worker's schedule, counted, and never failing — a pass
 * that still fails is logged and the next period tries again, which is safe because a pass only ever takes
 * rows that are due, and a row it did not finish is due again. Uninterruptible, so a node that stops lets
 * the pass in progress finish instead of leaving rows stamped but not handled.
 */
export const supervisedPass = <E, R>(worker: BackgroundWorker<E, R>) => {
  const tagged = <M extends Metric.Metric<number, unknown>>(metric: M) =>
    Metric.withAttributes(metric, { worker: worker.name });
  return worker.pass.pipe(
    Effect.retry({ schedule: Schedule.exponential(Duration.millis(100)), times: worker.retries ?? 3 }),
    Effect.tap((handled) =>
      Effect.andThen(
        Metric.update(tagged(workerMetrics.passes), 1),
        Metric.update(tagged(workerMetrics.handled), handled),
      ),
    ),
    Effect.catchCause((cause) =>
      Effect.gen(function* () {
        yield* Metric.update(tagged(workerMetrics.failures), 1);
        // Which party failed (StorageUnavailable, MailUnavailable …: workers/errors.ts), or `defect`.
        const failure = Cause.hasFails(cause) ? tagOf(Cause.squash(cause)) : 'defect';
        yield* logLine('warn', `${worker.name} pass failed; the next pass tries again`, { cause, failure });
        return 0;
      }),
    ),
    Effect.uninterruptible,
  );
};

const tagOf = (error: unknown) =>
  typeof error === 'object' && error !== null && '_tag' in error ? String(error._tag) : 'unknown';

/**
 * Runs a worker on this node until the node's scope closes: a supervised fiber that passes once per period
 * (first pass after one jittered period), each time its gate is open.
 */
export const superviseWorker = <E, R>(
  worker: BackgroundWorker<E, R>,
): Effect.Effect<void, never, R | Scope.Scope> =>
  // Its failures a series at 0 from the start: an alert on them reads 0, not absent, before the first.
  Metric.update(Metric.withAttributes(workerMetrics.failures, { worker: worker.name }), 0).pipe(
    Effect.andThen(
      Effect.forkScoped(
        jittered(worker.every).pipe(
          Effect.flatMap(Effect.sleep),
          Effect.andThen(worker.gate ?? Effect.void),
          Effect.andThen(supervisedPass(worker)),
          Effect.forever,
        ),
      ),
    ),
    Effect.asVoid,
  );

/** The period, ±25 %, drawn from Effect's Random (tests give it a seed or a fixed draw). */
export const jittered = (every: Duration.Input) =>
  Effect.map(Random.next, (draw) => Duration.millis(Duration.toMillis(every) * (0.75 + draw * 0.5)));

/**
 * What wakes workers that sleep on a `gate` while they have nothing to do, without losing a wake-up. A worker
 * notes `wakes()` before it looks for work and, finding none, calls `sleepUnlessWoken` with that note: the
 * gate closes only if nobody woke it since. A plain latch closed by whoever found nothing loses the wake of
 * work that committed after the worker looked but before it closed the latch; that work would then wait for
 * the next wake.
 *
 * @example
 * const signal = yield* makeWakeSignal;
 * yield* superviseWorker({ name: 'sender', gate: signal.gate, every: '20 millis',
 *   pass: Effect.gen(function* () {
 *     const seen = signal.wakes();
 *     const done = yield* handleDue;
 *     if (done === 0) yield* signal.sleepUnlessWoken(seen);
 *     return done;
 *   }) });
 * yield* signal.wake; // where work is queued
 */
export type WakeSignal = {
  /** Waits while the signal sleeps; passes at once while it is awake. */
  readonly gate: Effect.Effect<void>;
  /** Wakes the signal (and every worker waiting on its gate). */
  readonly wake: Effect.Effect<void>;
  /** How many wakes there have been: note it before looking for work. */
  readonly wakes: () => number;
  /** Puts the signal to sleep, unless a wake came after `seen` was noted (then work may be waiting). */
  readonly sleepUnlessWoken: (seen: number) => Effect.Effect<void>;
};

/** A wake signal telling `changed` of each wake and each sleep, in the order they happen (for probes). */
export const watchedWakeSignal = (changed: (awake: boolean) => void): Effect.Effect<WakeSignal> =>
  Effect.sync(() => {
    const latch = Latch.makeUnsafe(false);
    let wakes = 0;
    return {
      gate: latch.await,
      // Synchronous, so a count and the latch's state never disagree between two fibers' steps.
      wake: Effect.sync(() => {
        wakes++;
        latch.openUnsafe();
        changed(true);
      }),
      wakes: () => wakes,
      sleepUnlessWoken: (seen) =>
        Effect.sync(() => {
          if (wakes !== seen) return;
          latch.closeUnsafe();
          changed(false);
        }),
    };
  });

export const makeWakeSignal: Effect.Effect<WakeSignal> = watchedWakeSignal(() => {});
