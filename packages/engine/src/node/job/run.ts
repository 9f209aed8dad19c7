import { Deferred, Effect, Fiber } from 'effect';
import type { DebateProviders } from '../../providers/provider-choice.ts';
import { type Classification, classifyDomain } from '../../runner/classify.ts';
import type { RunningDebate } from '../../runner/run-debate.ts';
import { addCall } from '../../runner/usage.ts';
import { EngineSettings } from '../../services.ts';
import { StallWatch } from '../stall-guard.ts';
import { ActorStopped, type ClaimedJob, NodeJobs, reachedEnd, Stopping, stopWith } from './claimed-job.ts';

/**
 * Phase: the actor runs to a final state, unless the job has to stop first (its lease lost, its log failed,
 * the node stopping, the actor stalled): then the actor is stopped where it is, and everything up to its last
 * step is stored. The run waits on the job's one `ended` Deferred, which each of those completes: the node's
 * stall watch and its stop look at every running job from fibers of their own.
 */
export const run = (job: ClaimedJob, running: RunningDebate) =>
  Effect.scoped(
    Effect.gen(function* () {
      const jobs = yield* NodeJobs;
      const stallWatch = yield* StallWatch;
      running.done.then(
        (final) => reachedEnd(job, final),
        (cause) => stopWith(job, new ActorStopped({ cause })),
      );
      yield* stallWatch.watch({
        debateId: job.lease.debateId,
        running,
        steps: () => job.steps,
        onStall: (stalled) => stopWith(job, stalled),
      });
      yield* Effect.acquireRelease(
        Effect.sync(() => jobs.running.add(job)),
        () => Effect.sync(() => jobs.running.delete(job)),
      );
      // Added after the node began stopping, it would not be told: it tells itself.
      if (Deferred.isDoneUnsafe(jobs.stopping)) stopWith(job, new Stopping());
      return yield* Deferred.await(job.ended).pipe(Effect.onError(() => Effect.sync(() => running.stop())));
    }),
  );

/** Phase, beside the judge: the debate's question is classified into a domain by the classifier task's model. */
export const classify = (job: ClaimedJob, providers: DebateProviders) =>
  Effect.gen(function* () {
    const { policy } = yield* EngineSettings;
    // A slow classifier may cost the domain (`other`), never minutes of the finish once the verdict is in.
    const brief = {
      ...policy,
      timeoutMs: Math.min(policy.timeoutMs, 15_000),
      retries: Math.min(policy.retries, 1),
    };
    return yield* classifyDomain(providers.provider, providers.classifier, job.debate.question, brief);
  });

/**
 * Phase: the domain of a debate that reached a final state. A completed one waits for its classification if
 * the judge was quicker (a restored debate may not have passed the judge's start here: it is asked now). The
 * classifier's call counts in the usage only now, once the debate is over: a snapshot taken meanwhile must not
 * hold it, since a restored debate asks again. A debate that failed before its judge never asks.
 */
export const domainOf = (
  completed: boolean,
  asked: { judging: Deferred.Deferred<void>; classification: Fiber.Fiber<Classification> },
  running: RunningDebate,
) =>
  Effect.gen(function* () {
    if (!completed && !Deferred.isDoneUnsafe(asked.judging)) {
      yield* Fiber.interrupt(asked.classification);
      return 'other';
    }
    Deferred.doneUnsafe(asked.judging, Effect.void);
    const { domain, call } = yield* Fiber.join(asked.classification);
    if (call) addCall(running.usage, call, 'classifier');
    return completed ? domain : 'other';
  });
