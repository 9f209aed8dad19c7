import type { JobHandle } from '@verdict/core';
import { Deferred, Effect } from 'effect';
import { logLine } from '../../logging.ts';
import { EngineSettings } from '../../services.ts';
import { AttemptLog } from '../../store/attempt-log.ts';
import { LeaseStore } from '../../store/lease-store.ts';
import type { DebateOutcome, Lease } from '../../store/records.ts';
import { retryThroughBlips } from '../../store/retry.ts';
import { type DurableLog, openDurableLog } from '../durable-log.ts';
import { disposalOf, type JobEnding } from '../job-endings.ts';
import { type ClaimedJob, failedOutcome, type JobStop, NodeJobs } from './claimed-job.ts';

/**
 * Phase: the final state with its refund, charge and webhook, and the events that announce it, in one
 * transaction; then those events go out.
 */
export const finish = (log: DurableLog, outcome: DebateOutcome) =>
  Effect.gen(function* () {
    const { stored, published } = yield* log.finish(outcome);
    return { _tag: 'Completed', status: outcome.status, stored, published } satisfies JobEnding;
  });

/** How a claimed job that stopped short of a final state ended, in order of precedence. */
export const stoppedEnding = (job: ClaimedJob, stop: JobStop) =>
  Effect.gen(function* () {
    const { stopping } = yield* NodeJobs;
    const { lease } = job;
    if (job.cancelled) return { _tag: 'Cancelled', lease } satisfies JobEnding;
    if (stop._tag === 'LeaseLost') return { _tag: 'LeaseLost' } satisfies JobEnding;
    if (job.log) {
      // Whatever is still queued goes out now; a log that failed stored nothing past its last whole batch,
      // so the next holder restores from there either way.
      const flushed = yield* Effect.result(job.log.flush);
      if (flushed._tag === 'Failure' && flushed.failure !== stop) {
        yield* logLine('warn', `debate ${lease.debateId}: last events not stored`, {
          error: flushed.failure,
        });
      }
    }
    if (stop._tag === 'Stopping' || Deferred.isDoneUnsafe(stopping))
      return { _tag: 'Stopping', lease } satisfies JobEnding;
    return { _tag: 'Interrupted', lease, cause: stop } satisfies JobEnding;
  });

/**
 * An interrupted debate is counted; one interrupted too often while storage answers (the count is a write)
 * is a defect or a corrupt state, and fails instead of cycling through the queue forever.
 */
export const countedIfInterrupted = (ending: JobEnding) =>
  Effect.gen(function* () {
    if (ending._tag !== 'Interrupted') return ending;
    const store = yield* LeaseStore;
    const { maxInterruptions } = yield* EngineSettings;
    const counted = yield* Effect.result(store.countInterruption(ending.lease));
    // Not counted: storage is still down, and the job comes back later.
    if (counted._tag === 'Failure' || counted.success === null || counted.success < maxInterruptions)
      return ending;
    return { ...ending, _tag: 'Exhausted', interruptions: counted.success } satisfies JobEnding;
  });

/** Does with the job what the ending table says. */
export const dispose = (handle: JobHandle, ending: JobEnding) =>
  Effect.gen(function* () {
    const store = yield* LeaseStore;
    const { leaseMs } = yield* EngineSettings;
    const { debateId } = handle.job;
    const disposal = disposalOf(ending, { redelivered: handle.redelivered, leaseMs });
    if (disposal.log) {
      const [level, message] = disposal.log;
      const cause = 'cause' in ending ? { err: ending.cause } : undefined;
      yield* logLine(level, `debate ${debateId}: ${message}`, cause);
    }
    if (disposal.release && 'lease' in ending) {
      yield* store.release(ending.lease).pipe(
        // Safe: the lease then runs out on its own within a lease period, and the next holder waits that long.
        Effect.catch((error) => logLine('warn', `debate ${debateId}: lease not released`, { error })),
      );
    }
    if (disposal.job === 'leave') return;
    if (typeof disposal.job === 'object') {
      handle.retry(disposal.job.retryAfterMs);
      return;
    }
    if (disposal.job === 'failAndAck' && 'lease' in ending) {
      yield* failForGood(ending.lease).pipe(
        // The job is acked anyway: the debate is still unfinished, and the reconciler brings it back.
        Effect.catch((error) => logLine('error', `debate ${debateId}: could not fail it`, { error })),
      );
    }
    yield* Effect.tryPromise(() => handle.ack()).pipe(
      // Safe: an unacked job comes back, finds the debate finished or held, and is dropped then.
      Effect.catch((error) => logLine('warn', `debate ${debateId}: ack failed`, { error })),
    );
  });

/** Ends the attempt as failed INTERNAL_ERROR (refunded), with the failure at the end of its stream. */
const failForGood = (lease: Lease) =>
  Effect.scoped(
    Effect.gen(function* () {
      const attemptLog = yield* AttemptLog;
      const { storage } = yield* EngineSettings;
      const message = 'The engine could not run this debate; its credits were refunded';
      const log = yield* openDurableLog({
        lease,
        afterSeq: yield* attemptLog.lastSeq(lease).pipe(retryThroughBlips(storage)),
        storedKeys: [],
        snapshot: () => null,
        // The finish below fails with the same failure.
        onFailure: () => {},
      });
      log.emit({
        type: 'debate.failed',
        data: { debateId: lease.debateId, error: message, code: 'INTERNAL_ERROR' },
      });
      yield* log.finish(failedOutcome('INTERNAL_ERROR', message));
    }),
  );
