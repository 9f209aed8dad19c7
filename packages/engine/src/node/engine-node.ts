import { type Core, createMetricsRegistry, type JobHandle, type Registry } from '@verdict/core';
import { Context, Deferred, Effect, Layer, ManagedRuntime, Metric } from 'effect';
import { type EngineNodeOptions, engineLayer, optionsFromCore, settingsOf } from '../layers.ts';
import { type LogFn, logLine } from '../logging.ts';
import { bridgedMetricRegistry } from '../metrics/effect-bridge.ts';
import { EngineMetrics } from '../metrics/engine-metrics.ts';
import { observeWaitingWork } from '../metrics/work-gauges.ts';
import { ProviderChoice } from '../providers/provider-choice.ts';
import type { RunningDebate } from '../runner/run-debate.ts';
import { EngineBus, EngineProbe, EngineSettings, EngineStorage } from '../services.ts';
import { attachmentWorker } from '../workers/attachment-worker.ts';
import { auditRetentionWorker } from '../workers/audit-retention-worker.ts';
import { superviseWorker } from '../workers/background-worker.ts';
import { maintainDebateEventsOnNode } from '../workers/debate-events-worker.ts';
import { embeddingBacklogWorker, embeddingWorker } from '../workers/embedding-worker.ts';
import { mailWorker } from '../workers/mail-worker.ts';
import { presenceWatchWorker } from '../workers/presence-watch.ts';
import { reconcilerWorker, takeOverAll } from '../workers/reconciler.ts';
import { scheduledRunSeries, schedulerWorker } from '../workers/scheduler-worker.ts';
import { scoreWorker } from '../workers/score-worker.ts';
import { startWebhookDelivery } from '../workers/webhook-worker.ts';
import { handledWithBackoff, makeHandlerFailures } from './handler-backoff.ts';
import { type ClaimedJob, NodeJobs, Stopping, stopWith } from './job/claimed-job.ts';
import { handleJob } from './job/handle-job.ts';
import { JobHeartbeats } from './job-heartbeats.ts';
import { finishedSeries } from './job-metrics.ts';
import { LeaseKeeper } from './lease-keeper.ts';
import { StallWatch } from './stall-guard.ts';

/**
 * The node's presence on the database, held from before its first claim until after its last job: while it
 * is held, other nodes leave this node's debates to it until their leases run out; once its process dies, they
 * take them over as soon as their jobs come back (store/lease-store.ts, `claim`).
 */
const holdPresence = Effect.gen(function* () {
  const { db } = yield* EngineStorage;
  const { nodeId } = yield* EngineSettings;
  const hold = db.holdPresence;
  if (!hold) return;
  // Told from outside any fiber: its lines go through this node's logger all the same.
  const run = Effect.runForkWith(yield* Effect.context<never>());
  const log = (level: 'info' | 'warn', message: string) => run(logLine(level, message));
  yield* Effect.acquireRelease(
    Effect.promise(() =>
      hold(nodeId, {
        onHeld: () => log('info', 'presence held: other nodes see this one alive'),
        onLost: () =>
          log('warn', 'presence lost: other nodes may take over its debates whose jobs come back'),
      }),
    ),
    (end) => Effect.promise(end),
  );
});

/** What a node's background workers are given beyond the node's own settings. */
type WorkerOptions = Pick<
  EngineNodeOptions,
  | 'mail'
  | 'embedder'
  | 'embedIntervalMs'
  | 'scheduler'
  | 'webhooks'
  | 'blobs'
  | 'auditRetentionDays'
  | 'debateEvents'
>;

/**
 * One engine node while it runs: pulls debate jobs (one per slot), runs each as a job program, keeps its
 * leases alive, and runs the background workers. Everything it starts lives in its scope: once `stopRequested`
 * is done, the node stops pulling, its jobs hand their debates back, and its fibers end.
 */
export const runNode = (
  stopRequested: Deferred.Deferred<void>,
  active: Map<string, RunningDebate>,
  extras: WorkerOptions = {},
) =>
  Effect.scoped(
    Effect.gen(function* () {
      const settings = yield* EngineSettings;
      const bus = yield* EngineBus;
      const probe = yield* EngineProbe;
      yield* holdPresence;
      yield* finishedSeries;
      yield* superviseWorker(yield* reconcilerWorker);
      if ((yield* EngineStorage).db.holdPresence) yield* superviseWorker(yield* presenceWatchWorker);
      yield* superviseWorker(yield* scoreWorker);
      yield* superviseWorker(attachmentWorker(extras.blobs));
      const { mail, embedder } = extras;
      if (mail) yield* superviseWorker(mailWorker(mail.settings, mail.intervalMs));
      else yield* logLine('info', 'notification email is off: SMTP_URL is not set');
      // Whether it embeds, and with what, the composition roots say at start (describeEmbeddings). Where it
      // cannot, the debates queued for embedding are dropped once they have waited too long.
      if (embedder) yield* superviseWorker(embeddingWorker(embedder, extras.embedIntervalMs ?? 1000));
      else yield* superviseWorker(embeddingBacklogWorker());
      if (extras.scheduler) {
        yield* scheduledRunSeries;
        yield* superviseWorker(schedulerWorker(extras.scheduler, extras.scheduler.intervalMs));
      }
      yield* startWebhookDelivery(extras.webhooks ?? { policy: { allowHttp: false, allowPrivate: false } });
      if (extras.auditRetentionDays) yield* superviseWorker(auditRetentionWorker(extras.auditRetentionDays));
      if (extras.debateEvents) yield* maintainDebateEventsOnNode(extras.debateEvents.retentionDays);
      if (settings.exclusive) {
        yield* Effect.forkScoped(
          takeOverAll.pipe(
            // The reconciler's passes take the same debates later: slower, not lost.
            Effect.catch((err) => logLine('error', 'could not take over unfinished debates', { err })),
          ),
        );
      }
      const stopping = yield* Deferred.make<void>();
      const running = new Set<ClaimedJob>();
      const context = Context.add(
        yield* Effect.context<Exclude<Effect.Services<ReturnType<typeof handleJob>>, NodeJobs>>(),
        NodeJobs,
        NodeJobs.of({ handling: new Set(), active, stopping, running }),
      );
      const run = Effect.runPromiseWith(context);
      // A defect in the node, not a job's failure (those are endings): the job goes back to the queue, later
      // each time it fails again, so a debate that always breaks does not spin its node.
      const handleBackedOff = handledWithBackoff(yield* makeHandlerFailures(), handleJob);
      const handle = (job: JobHandle) => run(handleBackedOff(job));
      // Last acquired, first released, before the workers and the lease renewal end. Pulling stops first: a
      // job handed back must not come straight back to this node (the consumer naks what it pulls after).
      // Then the jobs in hand learn the node is stopping and hand their debates back; the consumer's stop
      // resolves once they all have.
      yield* Effect.acquireRelease(
        Effect.sync(() => bus.jobs.consume(settings.slots, handle)),
        (consumer) =>
          Effect.gen(function* () {
            const pullingStopped = consumer.stop();
            yield* Deferred.succeed(stopping, undefined);
            for (const job of running) stopWith(job, new Stopping());
            probe.notice({ _tag: 'NodeStopping' });
            yield* Effect.promise(() => pullingStopped);
          }),
      );
      yield* Deferred.await(stopRequested);
    }),
  ).pipe(Effect.provide(Layer.mergeAll(LeaseKeeper.layer, JobHeartbeats.layer, StallWatch.layer)));

export type EngineNode = {
  start: () => void;
  /** Stops pulling, hands the running debates back to the queue, and resolves once all of that is done. */
  stop: () => Promise<void>;
  /** Debates running on this node, by id: for tests, benchmarks and debugging views. */
  active: ReadonlyMap<string, RunningDebate>;
  /** True when no provider key is configured and debates run on the SIMULATED provider. */
  simulated: boolean;
  /** How this node signs its leases. */
  nodeId: string;
  /**
   * Its debates, provider calls, queue, workers and the work waiting for them (and, unless embedded, its
   * process's), for a scraper: its Effect metrics included.
   */
  metrics: Registry;
};

/**
 * An engine node for plain async callers (the composition roots, tests, benchmarks): its services are
 * built once into a runtime, and start/stop run the node program on it.
 */
export function createEngineNode(options: EngineNodeOptions): EngineNode {
  const settings = settingsOf(options);
  const active = new Map<string, RunningDebate>();
  // Node's own metrics are its process's, asked for by a process that runs only the node (optionsFromCore).
  const metrics = createMetricsRegistry('engine', { processMetrics: options.processMetrics ?? false });
  observeWaitingWork(metrics, options);
  const runtime = ManagedRuntime.make(
    Layer.merge(
      engineLayer(
        options,
        settings,
        EngineMetrics.layer(metrics, { active, slots: settings.slots }, options.clock.now),
      ),
      // The node's Effect metrics (its workers', …) are its own, and served with the rest of its registry.
      Layer.succeed(Metric.MetricRegistry, bridgedMetricRegistry(metrics)),
    ),
  );
  let running: { stopRequested: Deferred.Deferred<void>; done: Promise<void> } | null = null;
  return {
    active,
    metrics,
    nodeId: settings.nodeId,
    simulated: runtime.runSync(ProviderChoice.useSync((choice) => choice.simulated)),
    start: () => {
      if (running) return;
      const stopRequested = Deferred.makeUnsafe<void>();
      running = { stopRequested, done: runtime.runPromise(runNode(stopRequested, active, options)) };
    },
    stop: async () => {
      if (!running) return;
      const { stopRequested, done } = running;
      Deferred.doneUnsafe(stopRequested, Effect.void);
      await done;
      running = null;
    },
  };
}

/** An engine node configured from a process's Core: what both composition roots start. */
export const engineNodeFor = (core: Core, log?: LogFn): EngineNode =>
  createEngineNode(optionsFromCore(core, log));
