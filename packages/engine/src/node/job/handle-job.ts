import type { JobHandle } from '@verdict/core';
import { Deferred, Effect } from 'effect';
import { EngineMetrics } from '../../metrics/engine-metrics.ts';
import { type PersistedState, packState } from '../../replay/snapshot.ts';
import { outcomeOf } from '../../runner/outcome.ts';
import type { RunningDebate } from '../../runner/run-debate.ts';
import { LeaseLost } from '../../store/errors.ts';
import type { Claim } from '../../store/lease-store.ts';
import { inJobSpan } from '../../tracing/spans.ts';
import { openDurableLog } from '../durable-log.ts';
import type { JobEnding } from '../job-endings.ts';
import { JobHeartbeats } from '../job-heartbeats.ts';
import { countEnding } from '../job-metrics.ts';
import { LeaseKeeper } from '../lease-keeper.ts';
import { verdictCalibrator } from '../verdict-calibration.ts';
import { claimJob, publishedAgain } from './claim.ts';
import {
  type ClaimedJob,
  type FinalSnapshot,
  failedOutcome,
  type JobStop,
  NodeJobs,
  stopWith,
} from './claimed-job.ts';
import { countedIfInterrupted, dispose, finish, stoppedEnding } from './end.ts';
import { markRunning, restore } from './restore.ts';
import { classify, domainOf, run } from './run.ts';
import { serveCommands } from './serve-commands.ts';
import { chooseProviders, start } from './start.ts';

/**
 * One job, start to end: look at it, claim the debate, run it, and dispose of the job as the ending table
 * (job-endings.ts) says. Never fails: every way a job can end is an ending.
 */
export const handleJob = (handle: JobHandle) =>
  Effect.gen(function* () {
    const ending = yield* endingOf(handle);
    yield* countEnding(ending);
    yield* Effect.annotateCurrentSpan('debate.job.ending', ending._tag);
    yield* dispose(handle, ending);
  }).pipe(inJobSpan(handle));

const endingOf = (handle: JobHandle) =>
  Effect.gen(function* () {
    const { handling } = yield* NodeJobs;
    const { debateId } = handle.job;
    if (handling.has(debateId)) return { _tag: 'DuplicateOnThisNode' } as const;
    return yield* Effect.acquireUseRelease(
      Effect.sync(() => handling.add(debateId)),
      () => claimAndRun(handle),
      () => Effect.sync(() => handling.delete(debateId)),
    );
  });

/** The job's ending once claimed (or why it was not): a claimed debate runs here. */
const claimAndRun = (handle: JobHandle) =>
  Effect.gen(function* () {
    const looked = yield* Effect.result(claimJob(handle));
    if (looked._tag === 'Failure') return { _tag: 'Unclaimable', cause: looked.failure } satisfies JobEnding;
    const claim = looked.success;
    switch (claim.kind) {
      case 'gone':
        return { _tag: 'Gone' } satisfies JobEnding;
      case 'finished':
        return yield* publishedAgain(handle);
      case 'held':
        return { _tag: 'HeldElsewhere', remainingMs: claim.remainingMs } satisfies JobEnding;
      case 'claimed':
        (yield* EngineMetrics).claimed(handle, claim.takenFrom);
        return yield* countedIfInterrupted(yield* runClaimed(handle, claim));
    }
  });

/** A claim that took the debate, with when (monotonic). */
type ClaimedDebate = Extract<Claim, { kind: 'claimed' }> & { claimedAt: number };

/**
 * The life of a claimed job as one scope: the lease renewal, the queue heartbeat and the command
 * subscription are acquired here and released when the job ends, however it ends.
 */
const runClaimed = (handle: JobHandle, { debate, lease, fresh, claimedAt }: ClaimedDebate) =>
  Effect.scoped(
    Effect.gen(function* () {
      const keeper = yield* LeaseKeeper;
      const heartbeats = yield* JobHeartbeats;
      const ended = yield* Deferred.make<FinalSnapshot, JobStop>();
      const held = yield* keeper.keep(
        lease,
        () => Deferred.doneUnsafe(ended, Effect.fail(new LeaseLost({ debateId: lease.debateId }))),
        claimedAt,
      );
      const job: ClaimedJob = {
        handle,
        debate,
        lease,
        fresh,
        held,
        ended,
        ready: yield* Deferred.make<RunningDebate | null>(),
        cancelled: false,
        log: null,
        steps: 0,
      };
      yield* heartbeats.keep(handle);
      yield* serveCommands(job);
      const ran = yield* Effect.result(phases(job));
      return ran._tag === 'Success' ? ran.success : yield* stoppedEnding(job, ran.failure);
    }),
  );

/** The named phases of a claimed job, in order. */
const phases = (job: ClaimedJob) =>
  Effect.gen(function* () {
    yield* markRunning(job);
    const restoration = yield* restore(job);
    let current: (() => PersistedState | null) | null = null;
    const log = yield* openDurableLog({
      lease: job.lease,
      afterSeq: restoration.lastSeq,
      storedKeys: restoration.storedKeys,
      snapshot: () => {
        const state = current?.();
        return state ? packState(state) : null;
      },
      onFailure: (failure) => stopWith(job, failure),
    });
    job.log = log;
    const failed = restoration.failedBeforeStart;
    if (failed) {
      // It failed before it ever ran (no provider), and the node died before storing that.
      return yield* finish(log, failedOutcome(failed.code, failed.error));
    }
    const providers = yield* chooseProviders(job);
    if ('unavailable' in providers) {
      const { debateId } = job.lease;
      log.emit({
        type: 'debate.failed',
        data: { debateId, error: providers.unavailable, code: 'PROVIDER_ERROR' },
      });
      return yield* finish(log, failedOutcome('PROVIDER_ERROR', providers.unavailable));
    }
    // The question alone decides the domain: asked while the judge works, it is in hand with the verdict.
    const judging = Deferred.makeUnsafe<void>();
    const classification = yield* Effect.forkScoped(
      Effect.andThen(Deferred.await(judging), classify(job, providers)),
    );
    const running = yield* start(job, providers, restoration, {
      onStateChange: (latest) => {
        current = latest;
        job.steps += 1;
        log.stateChanged();
      },
      onJudging: () => Deferred.doneUnsafe(judging, Effect.void),
      calibrate: yield* verdictCalibrator(
        { id: job.debate.id, ownerId: job.debate.owner_id },
        { judging, classification },
      ),
    });
    const final = yield* run(job, running);
    const domain = yield* domainOf(final.value === 'completed', { judging, classification }, running);
    return yield* finish(log, outcomeOf(final, running, domain));
  });
