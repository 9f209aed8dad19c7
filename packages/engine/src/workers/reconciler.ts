import type { DebateJob } from '@verdict/core';
import { Clock, Effect } from 'effect';
import { logLine } from '../logging.ts';
import { EngineBus, EngineSettings } from '../services.ts';
import { BusUnavailable } from '../store/errors.ts';
import { LeaseStore } from '../store/lease-store.ts';
import type { BackgroundWorker } from './background-worker.ts';

/** How much longer an unclaimed debate waits for its job while the queue has a backlog. */
const BACKLOG_PATIENCE = 10;
/** Debates re-queued per pass at most; the next pass takes the rest. */
const BATCH = 500;

/**
 * Queues a job for each debate (a deliberate extra copy, which the queue's dedupe window does not drop). When
 * the bus refuses one, the debates not yet queued get their stamp back, so the next pass takes them.
 */
const requeue = (jobs: readonly DebateJob[]) =>
  Effect.gen(function* () {
    const bus = yield* EngineBus;
    const store = yield* LeaseStore;
    const copy = `requeue-${yield* Clock.currentTimeMillis}`;
    for (const [index, job] of jobs.entries()) {
      const queued = yield* Effect.result(
        Effect.tryPromise({
          try: () => bus.jobs.enqueue(job, copy),
          catch: (cause) => new BusUnavailable({ cause }),
        }),
      );
      if (queued._tag === 'Failure') {
        const missed = jobs.slice(index).map((j) => j.debateId);
        yield* store.unstamp(missed).pipe(
          // Still stamped, they are due again one stale period later: late, not lost.
          Effect.catch((error) => logLine('warn', 'could not take back re-queue stamps', { error })),
        );
        return yield* Effect.fail(queued.failure);
      }
    }
    if (jobs.length > 0) yield* logLine('warn', `re-queued ${jobs.length} debate(s) nobody was running`);
    return jobs.length;
  });

/**
 * One reconciler pass: debates unfinished but run by nobody — never claimed (the job publish failed, or the
 * queue lost it), or held by a lease that ran out long ago (the node died and its job did not come back) —
 * claimed with `skip locked`, stamped, and queued again. Several nodes passing at once re-queue each debate
 * once per period; a surplus copy is harmless anyway, since running a debate needs its lease.
 *
 * Unclaimed debates get a longer period while the queue has a backlog: then they are most likely waiting
 * their turn in it, and a copy every period would only grow the queue.
 */
export const reconcilePass = Effect.gen(function* () {
  const bus = yield* EngineBus;
  const store = yield* LeaseStore;
  const { staleAfterMs } = (yield* EngineSettings).reconcile;
  const waiting = yield* Effect.tryPromise({
    try: () => bus.jobs.waiting(),
    catch: (cause) => new BusUnavailable({ cause }),
  });
  const unclaimedStaleAfterMs = waiting > 0 ? staleAfterMs * BACKLOG_PATIENCE : staleAfterMs;
  return yield* requeue(yield* store.claimStale({ staleAfterMs, unclaimedStaleAfterMs, batch: BATCH }));
});

/** Takes over everything another process left behind; only for a node that is alone by design (embedded). */
export const takeOverAll = Effect.gen(function* () {
  const store = yield* LeaseStore;
  return yield* requeue(yield* store.takeOverAll());
});

/** The reconciler as a background worker of every engine node. */
export const reconcilerWorker = EngineSettings.useSync(
  (
    settings,
  ): BackgroundWorker<Effect.Error<typeof reconcilePass>, Effect.Services<typeof reconcilePass>> => ({
    name: 'reconciler',
    pass: reconcilePass,
    every: settings.reconcile.intervalMs,
  }),
);
