import type { Verdict } from '@verdict/contracts';
import { attachmentExcerptsFor, type CommandReply, type JobHandle, releaseCorpusIndex } from '@verdict/core';
import { Context, Data, Deferred, Effect, Fiber } from 'effect';
import type { SnapshotFrom } from 'xstate';
import { logLine } from '../logging.ts';
import type { debateMachine } from '../machine/machine.ts';
import { seatPanel } from '../machine/panel.ts';
import { EngineMetrics } from '../metrics/engine-metrics.ts';
import { type DebateProviders, ProviderChoice } from '../providers/provider-choice.ts';
import { type Restoration, restorationFrom } from '../replay/replay.ts';
import { type PersistedState, packState } from '../replay/snapshot.ts';
import { type Classification, classifyDomain } from '../runner/classify.ts';
import { outcomeOf } from '../runner/outcome.ts';
import { type RunningDebate, startDebate } from '../runner/run-debate.ts';
import { addCall, zeroCost } from '../runner/usage.ts';
import { EngineBus, EngineProbe, EngineSettings, EngineStorage } from '../services.ts';
import { DebateStore } from '../store/debate-store.ts';
import {
  BusUnavailable,
  LeaseLost,
  type PermanentFailure,
  type StorageUnavailable,
} from '../store/errors.ts';
import type { DebateOutcome, DebateToRun, Lease } from '../store/records.ts';
import { retryThroughBlips } from '../store/retry.ts';
import { inJobSpan } from '../tracing/spans.ts';
import { applyCommand } from './commands.ts';
import { debateEvidence } from './debate-evidence.ts';
import { type DurableLog, type LogFailure, openDurableLog } from './durable-log.ts';
import { disposalOf, type JobEnding } from './job-endings.ts';
import { JobHeartbeats } from './job-heartbeats.ts';
import { countEnding } from './job-metrics.ts';
import { behindLease, type HeldLease, LeaseKeeper } from './lease-keeper.ts';
import { type Stalled, stallGuard, stallLimitMs } from './stall-guard.ts';
import { verdictCalibrator } from './verdict-calibration.ts';

/** What the jobs of one running node share: which debates it handles, which actors run, whether it stops. */
export class NodeJobs extends Context.Service<
  NodeJobs,
  {
    /** Debates whose job this node is handling, from the first look until the job is acked or given back. */
    readonly handling: Set<string>;
    /** Actors running on this node, by debate id. */
    readonly active: Map<string, RunningDebate>;
    /** Done when the node is stopping: jobs hand their debates back instead of starting or finishing them. */
    readonly stopping: Deferred.Deferred<void>;
  }
>()('@verdict/engine/NodeJobs') {}

/** The node is stopping: the debate goes back to the queue from its last stored step. */
class Stopping extends Data.TaggedError('Stopping') {}

/** The actor failed or was stopped before reaching a final state. */
class ActorStopped extends Data.TaggedError('ActorStopped')<{ readonly cause: unknown }> {}

/** Why a claimed job stopped short of storing a final state. */
type JobStop =
  | LogFailure
  | StorageUnavailable
  | PermanentFailure
  | BusUnavailable
  | LeaseLost
  | Stopping
  | ActorStopped
  | Stalled;

/** What the phases of one claimed job share. */
type ClaimedJob = {
  readonly handle: JobHandle;
  readonly debate: DebateToRun;
  readonly lease: Lease;
  /** The lease as its keeper holds it: the provider waits on it (`confirmed`) before each call. */
  readonly held: HeldLease;
  /** Failed once when the job cannot go on: its lease is gone, its log failed, its actor's round broke. */
  readonly fatal: Deferred.Deferred<never, JobStop>;
  /** The actor once it runs, or null when this node gives the debate up before starting it. */
  readonly ready: Deferred.Deferred<RunningDebate | null>;
  cancelled: boolean;
  log: DurableLog | null;
  /** Snapshots the actor has taken: the stall guard's measure of progress. */
  steps: number;
};

const stopWith = (job: ClaimedJob, stop: JobStop) => Deferred.doneUnsafe(job.fatal, Effect.fail(stop));

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

/** Who runs the debate is the database's to decide: the job only woke this node up. */
const claimAndRun = (handle: JobHandle) =>
  Effect.gen(function* () {
    const store = yield* DebateStore;
    const looked = yield* Effect.result(
      Effect.gen(function* () {
        const debate = yield* store.find(handle.job.debateId);
        if (!debate || debate.attempt !== handle.job.attempt) return { kind: 'gone' } as const;
        if (debate.status === 'completed' || debate.status === 'failed') return { kind: 'finished' } as const;
        // The lease runs from the claim's statement at the earliest: it holds until then plus its period.
        const claimedAt = Date.now();
        const claim = yield* store.claim(handle.job);
        return claim.kind === 'claimed' ? { ...claim, debate, claimedAt } : claim;
      }),
    );
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
        return yield* countedIfInterrupted(
          yield* runClaimed(handle, claim.debate, claim.lease, claim.claimedAt),
        );
    }
  });

/**
 * The life of a claimed job as one scope: the lease renewal, the queue heartbeat and the command
 * subscription are acquired here and released when the job ends, however it ends.
 */
const runClaimed = (handle: JobHandle, debate: DebateToRun, lease: Lease, claimedAt: number) =>
  Effect.scoped(
    Effect.gen(function* () {
      const keeper = yield* LeaseKeeper;
      const heartbeats = yield* JobHeartbeats;
      const fatal = yield* Deferred.make<never, JobStop>();
      const held = yield* keeper.keep(
        lease,
        () => Deferred.doneUnsafe(fatal, Effect.fail(new LeaseLost({ debateId: lease.debateId }))),
        claimedAt,
      );
      const job: ClaimedJob = {
        handle,
        debate,
        lease,
        held,
        fatal,
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

/**
 * The job of a debate this attempt already finished: its holder stored the final state but may have died, or
 * met a bus outage, before publishing the events stored with it, and live streams would wait for them for
 * ever. They are published again (JetStream drops the ones it has by message id; streams drop what they sent).
 */
const publishedAgain = (handle: JobHandle) =>
  Effect.gen(function* () {
    const store = yield* DebateStore;
    const bus = yield* EngineBus;
    const published = yield* Effect.result(
      Effect.gen(function* () {
        const events = yield* store.storedEvents(handle.job);
        yield* Effect.tryPromise({
          try: () => Promise.all(events.map((event) => bus.events.publish(event))),
          catch: (cause) => new BusUnavailable({ cause }),
        });
      }),
    );
    return published._tag === 'Success'
      ? ({ _tag: 'Gone' } satisfies JobEnding)
      : ({ _tag: 'Unpublished', cause: published.failure } satisfies JobEnding);
  });

/** The named phases of a claimed job, in order. */
const phases = (job: ClaimedJob) =>
  Effect.gen(function* () {
    yield* markRunning(job);
    const restoration = yield* restore(job);
    let latest: PersistedState | null = null;
    const log = yield* openDurableLog({
      lease: job.lease,
      afterSeq: restoration.lastSeq,
      storedKeys: restoration.storedKeys,
      snapshot: () => (latest ? packState(latest) : null),
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
      onStateChange: (state) => {
        latest = state;
        job.steps += 1;
        log.stateChanged();
      },
      onJudging: () => Deferred.doneUnsafe(judging, Effect.void),
      calibrate: yield* verdictCalibrator(job.debate.id, { judging, classification }),
    });
    const final = yield* run(job, running);
    const domain = yield* domainOf(final.value === 'completed', { judging, classification }, running);
    return yield* finish(log, outcomeOf(final, running, domain));
  });

const failedOutcome = (code: string, message: string): DebateOutcome => ({
  status: 'failed',
  code,
  message,
  cost: zeroCost(),
});

/** Phase: the debate reads `running` (or stays `paused`), under this node's lease. */
const markRunning = (job: ClaimedJob) =>
  Effect.gen(function* () {
    const store = yield* DebateStore;
    const { storage } = yield* EngineSettings;
    yield* store.markRunning(job.lease).pipe(retryThroughBlips(storage));
  });

/**
 * Phase: read back what earlier holders stored. Whatever they stored but may not have published reaches live
 * streams now (JetStream drops the ones it already has by message id).
 */
const restore = (job: ClaimedJob) =>
  Effect.gen(function* () {
    const store = yield* DebateStore;
    const bus = yield* EngineBus;
    const { storage } = yield* EngineSettings;
    const restoration = yield* restorationFrom(
      yield* store.storedLog(job.lease).pipe(retryThroughBlips(storage)),
    );
    yield* Effect.tryPromise({
      try: () => Promise.all(restoration.events.map((event) => bus.events.publish(event))),
      catch: (cause) => new BusUnavailable({ cause }),
    }).pipe(retryThroughBlips(storage));
    return restoration;
  });

/** Phase: the models and clients the debate runs on, or why none can run it. */
const chooseProviders = (job: ClaimedJob) =>
  Effect.gen(function* () {
    const choice = yield* ProviderChoice;
    const metrics = yield* EngineMetrics;
    const { storage } = yield* EngineSettings;
    const chosen = yield* choice.providersFor(job.debate).pipe(retryThroughBlips(storage));
    return 'unavailable' in chosen
      ? chosen
      : { ...chosen, provider: behindLease(metrics.meter(chosen.provider), job.held) };
  });

/** Phase: the actor starts, fresh or from where the restoration says; commands waiting for it are answered. */
const start = (
  job: ClaimedJob,
  providers: DebateProviders,
  restoration: Restoration,
  hooks: {
    onStateChange: (state: PersistedState) => void;
    onJudging: () => void;
    calibrate: (verdict: Verdict) => Effect.Effect<Verdict>;
  },
) =>
  Effect.gen(function* () {
    const jobs = yield* NodeJobs;
    const store = yield* DebateStore;
    const { storage, policy, nodeId, embedder } = yield* EngineSettings;
    const { db } = yield* EngineStorage;
    const { debate, lease } = job;
    const events = job.log as DurableLog;
    // Stopping while this debate was claimed or restored: hand it back rather than start it.
    if (Deferred.isDoneUnsafe(jobs.stopping)) return yield* Effect.fail(new Stopping());
    const services = yield* Effect.context<never>();
    if (restoration.resumption) {
      (yield* EngineMetrics).restored();
      yield* logLine('warn', `debate ${debate.id}: restored from its last snapshot`);
    }
    const running = startDebate(
      {
        debateId: debate.id,
        question: debate.question,
        context: debate.context,
        mode: debate.mode,
        seats: seatPanel(debate.requested_agents, providers.panel),
        rounds: debate.requested_rounds,
        earlyStop: debate.early_stop_threshold === null ? null : { threshold: debate.early_stop_threshold },
        options: debate.compare_options,
      },
      {
        provider: providers.provider,
        judgeModel: providers.judge,
        policy,
        attempt: debate.attempt,
        emit: (body) => {
          if (body.type === 'synthesis.started') hooks.onJudging();
          events.emit(body);
        },
        recordTurn: (turn) => store.saveTurn(lease, turn).pipe(retryThroughBlips(storage)),
        onFatal: (error) =>
          stopWith(job, error instanceof LeaseLost ? error : new ActorStopped({ cause: error })),
        onStateChange: hooks.onStateChange,
        readAttachments: () => attachmentExcerptsFor(db, debate.id),
        ...(debate.evidence_engine
          ? { evidence: debateEvidence(db, debate.id, embedder ?? null, warnEmbedding(debate.id, services)) }
          : {}),
        calibrate: hooks.calibrate,
        nodeId,
        services,
      },
      restoration.resumption ?? undefined,
    );
    jobs.active.set(debate.id, running);
    yield* Effect.addFinalizer(() =>
      Effect.sync(() => {
        jobs.active.delete(debate.id);
        // Its passages' ranking index goes with the job: a node running it again reads it afresh.
        if (debate.evidence_engine) releaseCorpusIndex(db, debate.id);
      }),
    );
    Deferred.doneUnsafe(job.ready, Effect.succeed(running));
    return running;
  });

/**
 * Phase: the actor runs to a final state, unless the job has to stop first (its lease lost, its log failed,
 * the node stopping, the actor stalled): then the actor is stopped where it is, and everything up to its last
 * step is stored.
 */
const run = (job: ClaimedJob, running: RunningDebate) =>
  Effect.gen(function* () {
    const { stopping } = yield* NodeJobs;
    const { policy, storage } = yield* EngineSettings;
    const finished = Effect.tryPromise({
      try: () => running.done,
      catch: (cause) => new ActorStopped({ cause }),
    });
    const nodeStops = Effect.andThen(Deferred.await(stopping), Effect.fail(new Stopping()));
    const stalls = stallGuard(running, () => job.steps, stallLimitMs(policy, storage.toleranceMs)).pipe(
      Effect.tapError(({ quietMs, state }) =>
        logLine('error', `debate ${job.lease.debateId}: stalled, no step in ${quietMs} ms at ${state}`),
      ),
    );
    return yield* Effect.raceAllFirst([finished, Deferred.await(job.fatal), nodeStops, stalls]).pipe(
      Effect.onError(() => Effect.sync(() => running.actor.stop())),
    ) as Effect.Effect<SnapshotFrom<typeof debateMachine>, JobStop>;
  });

/** Phase, beside the judge: the debate's question is classified into a domain by the classifier task's model. */
const classify = (job: ClaimedJob, providers: DebateProviders) =>
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
const domainOf = (
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

/**
 * Phase: the final state with its refund, charge and webhook, and the events that announce it, in one
 * transaction; then those events go out.
 */
const finish = (log: DurableLog, outcome: DebateOutcome) =>
  Effect.gen(function* () {
    const { stored, published } = yield* log.finish(outcome);
    return { _tag: 'Completed', status: outcome.status, stored, published } satisfies JobEnding;
  });

/** Commands for this debate are answered from the moment it is claimed; early ones wait for the actor. */
const serveCommands = (job: ClaimedJob) =>
  Effect.gen(function* () {
    const bus = yield* EngineBus;
    const probe = yield* EngineProbe;
    // The bus calls `answer` outside any fiber: what it runs, it runs on the node's services.
    const run = Effect.runPromiseWith(yield* Effect.context<never>());
    const answer = async (
      command: Parameters<typeof applyCommand>[1],
    ): Promise<CommandReply | 'no_engine'> => {
      if (!Deferred.isDoneUnsafe(job.ready)) {
        probe.notice({ _tag: 'CommandAwaitingActor', debateId: job.lease.debateId });
      }
      const current = await run(Deferred.await(job.ready));
      if (!current) return 'no_engine';
      if (command.type === 'cancel') job.cancelled = true;
      const reply = applyCommand(current, command);
      if (!reply.accepted || command.type === 'inspect' || command.type === 'cancel' || !job.log)
        return reply;
      // Accepted means stored: the command survives this node dying right after answering.
      const stored = await run(Effect.result(job.log.flush));
      return stored._tag === 'Success' ? reply : refusedUnstored(reply);
    };
    yield* Effect.acquireRelease(
      Effect.tryPromise({
        try: () => bus.commands.serve(job.lease.debateId, answer),
        catch: (cause) => new BusUnavailable({ cause }),
      }),
      (stopServing) =>
        Effect.sync(() => {
          // No effect once the actor ran; otherwise commands still waiting learn nobody runs it here.
          Deferred.doneUnsafe(job.ready, Effect.succeed(null));
          stopServing();
        }),
    );
  });

const refusedUnstored = (reply: CommandReply): CommandReply => ({
  accepted: false,
  state: reply.state,
  message: 'The engine could not store the command; try again',
});

/** How a claimed job that stopped short of a final state ended, in order of precedence. */
const stoppedEnding = (job: ClaimedJob, stop: JobStop) =>
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
const countedIfInterrupted = (ending: JobEnding) =>
  Effect.gen(function* () {
    if (ending._tag !== 'Interrupted') return ending;
    const store = yield* DebateStore;
    const { maxInterruptions } = yield* EngineSettings;
    const counted = yield* Effect.result(store.countInterruption(ending.lease));
    // Not counted: storage is still down, and the job comes back later.
    if (counted._tag === 'Failure' || counted.success === null || counted.success < maxInterruptions)
      return ending;
    return { ...ending, _tag: 'Exhausted', interruptions: counted.success } satisfies JobEnding;
  });

/** Does with the job what the ending table says. */
const dispose = (handle: JobHandle, ending: JobEnding) =>
  Effect.gen(function* () {
    const store = yield* DebateStore;
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
      const store = yield* DebateStore;
      const { storage } = yield* EngineSettings;
      const message = 'The engine could not run this debate; its credits were refunded';
      const log = yield* openDurableLog({
        lease,
        afterSeq: yield* store.lastSeq(lease).pipe(retryThroughBlips(storage)),
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

/** Says that a debate's passages are ranked without vectors for now (an embedding call failed). */
const warnEmbedding = (debateId: string, services: Context.Context<never>) => (error: unknown) =>
  Effect.runSyncWith(services)(
    logLine('warn', `debate ${debateId}: passages ranked by full text alone (embedding failed)`, {
      err: error,
    }),
  );
