import type { Verdict } from '@verdict/contracts';
import { attachmentExcerptsFor, releaseCorpusIndex } from '@verdict/core';
import { type Context, Deferred, Effect } from 'effect';
import { logLine } from '../../logging.ts';
import { seatPanel } from '../../machine/panel.ts';
import { EngineMetrics } from '../../metrics/engine-metrics.ts';
import { type DebateProviders, ProviderChoice } from '../../providers/provider-choice.ts';
import type { Restoration } from '../../replay/replay.ts';
import type { PersistedState } from '../../replay/snapshot.ts';
import { startDebate } from '../../runner/run-debate.ts';
import { EngineSettings, EngineStorage } from '../../services.ts';
import { AttemptLog } from '../../store/attempt-log.ts';
import { LeaseLost } from '../../store/errors.ts';
import { retryThroughBlips } from '../../store/retry.ts';
import { debateEvidence } from '../debate-evidence.ts';
import type { DurableLog } from '../durable-log.ts';
import { behindLease } from '../lease-keeper.ts';
import { ActorStopped, type ClaimedJob, NodeJobs, Stopping, stopWith } from './claimed-job.ts';

/** Phase: the models and clients the debate runs on, or why none can run it. */
export const chooseProviders = (job: ClaimedJob) =>
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
export const start = (
  job: ClaimedJob,
  providers: DebateProviders,
  restoration: Restoration,
  hooks: {
    onStateChange: (current: () => PersistedState | null) => void;
    onJudging: () => void;
    calibrate: (verdict: Verdict) => Effect.Effect<Verdict>;
  },
) =>
  Effect.gen(function* () {
    const jobs = yield* NodeJobs;
    const attemptLog = yield* AttemptLog;
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
        recordTurn: (turn) => attemptLog.saveTurn(lease, turn).pipe(retryThroughBlips(storage)),
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

/** Says that a debate's passages are ranked without vectors for now (an embedding call failed). */
const warnEmbedding = (debateId: string, services: Context.Context<never>) => (error: unknown) =>
  Effect.runSyncWith(services)(
    logLine('warn', `debate ${debateId}: passages ranked by full text alone (embedding failed)`, {
      err: error,
    }),
  );
