import type { Plan } from '@verdict/contracts';
import {
  type BlobStore,
  type Bus,
  type Clock,
  type Core,
  createScheduler,
  type Database,
  type Embedder,
  type MailSettings,
  type Scheduler,
  smtpMailer,
} from '@verdict/core';
import { Layer } from 'effect';
import { clockLayer } from './clock.ts';
import { engineLogLayer, type LogFn } from './logging.ts';
import { EngineMetrics } from './metrics/engine-metrics.ts';
import { createEmbedder } from './providers/embedders.ts';
import { ProviderChoice } from './providers/provider-choice.ts';
import type { ProviderKeys, ProviderRegistryOptions } from './providers/registry.ts';
import type { SimulatedOptions } from './providers/simulated.ts';
import { type CallPolicy, DEFAULT_CALL_POLICY } from './runner/llm-call.ts';
import {
  EngineBus,
  EngineProbe,
  EngineSettings,
  type EngineSettingsShape,
  EngineStorage,
  newNodeId,
  type ProbeMoment,
} from './services.ts';
import { AttemptLog } from './store/attempt-log.ts';
import { AttemptOutcome } from './store/attempt-outcome.ts';
import { LeaseStore } from './store/lease-store.ts';
import { engineTracerLayer } from './tracing/otel-tracer.ts';
import type { WebhookDeliveryOptions } from './workers/webhook-worker.ts';

/** What an engine node is built from: the process's adapters, its provider keys, and its settings. */
export type EngineNodeOptions = {
  db: Database;
  bus: Bus;
  clock: Clock;
  /** Debates this node runs at once. */
  slots: number;
  /** The service's own provider keys; with none, debates run on the SIMULATED provider. */
  providerKeys: ProviderKeys;
  providerOptions?: ProviderRegistryOptions;
  simulated?: SimulatedOptions;
  policy?: CallPolicy;
  /** How long a node's lease on a debate lasts unrenewed (ENGINE_LEASE_MS; default 6 s). */
  leaseMs?: number;
  /** How often the node renews its leases; default a third of the lease. */
  heartbeatMs?: number;
  /** The job queue's ack wait (JOB_ACK_WAIT_MS): each job's heartbeat goes out every third of it. Default: the lease. */
  jobAckWaitMs?: number;
  /** How long storage and bus writes retry through an outage before the debate is handed back. */
  storageToleranceMs?: number;
  reconcile?: { intervalMs: number; staleAfterMs: number };
  /** How often the node looks for nodes whose presence went (workers/presence-watch.ts; default 100 ms). */
  presenceWatchMs?: number;
  /** How often the score worker takes recorded outcomes into scores (default 500 ms). */
  scoreIntervalMs?: number;
  maxInterruptions?: number;
  /** Embeds completed debates for similar-debate lookups; absent or null when no provider embeds. */
  embedder?: Embedder | null;
  /** How often the embedding worker looks for completed debates to embed (default 1 s). */
  embedIntervalMs?: number;
  /** Notification email: the mailer's settings and period; absent when the service sends no email. */
  mail?: { settings: MailSettings; intervalMs: number };
  /** Scheduled debates: the scheduler of the node's core and its period; absent, the node runs none. */
  scheduler?: { runDue: Scheduler['runDue']; intervalMs: number };
  /** The only node there is (embedded mode): at start it takes over whatever an earlier process left. */
  exclusive?: boolean;
  /**
   * Node's own metrics (heap, event loop …) on the node's registry: asked for by an engine process of its
   * own (optionsFromCore, distributed); off by default (in the API's process, tests and benches).
   */
  processMetrics?: boolean;
  /** Webhook delivery: the SSRF policy and the senders; absent: the strict policy and the defaults. */
  webhooks?: WebhookDeliveryOptions;
  /** Maintenance of the events' partitions (DEBATE_EVENTS_RETENTION_DAYS); absent: the node does none. */
  debateEvents?: { retentionDays: number | null };
  /** Days each plan's audit entries are kept (AUDIT_RETENTION_DAYS); absent: the node prunes none. */
  auditRetentionDays?: Record<Plan, number>;
  /** Where attachment bytes live (the core's store); absent: in the database. */
  blobs?: BlobStore;
  log?: LogFn;
  /** Told of moments tests wait for (services.ts, ProbeMoment). */
  probe?: (moment: ProbeMoment) => void;
};

const DEFAULT_LEASE_MS = 6000;

export function settingsOf(options: EngineNodeOptions): EngineSettingsShape {
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const heartbeatMs = options.heartbeatMs ?? Math.max(200, Math.floor(leaseMs / 3));
  return {
    nodeId: newNodeId(),
    slots: options.slots,
    leaseMs,
    heartbeatMs,
    jobHeartbeatMs: options.jobAckWaitMs
      ? Math.min(heartbeatMs, Math.max(100, Math.floor(options.jobAckWaitMs / 3)))
      : heartbeatMs,
    storage: { toleranceMs: options.storageToleranceMs ?? 30_000 },
    maxInterruptions: options.maxInterruptions ?? 5,
    reconcile: options.reconcile ?? { intervalMs: 15_000, staleAfterMs: 30_000 },
    presenceWatchMs: options.presenceWatchMs ?? 100,
    scoreIntervalMs: options.scoreIntervalMs ?? 500,
    exclusive: options.exclusive ?? false,
    policy: options.policy ?? DEFAULT_CALL_POLICY,
    embedder: options.embedder ?? null,
  };
}

/**
 * Every service the engine runs on, built once from the node's options: the adapters (storage, bus, clock,
 * log), the settings, and the services made of them (the engine store, the provider choice).
 */
export function engineLayer(
  options: EngineNodeOptions,
  settings: EngineSettingsShape,
  metrics: Layer.Layer<EngineMetrics> = EngineMetrics.none,
) {
  const adapters = Layer.mergeAll(
    metrics,
    Layer.succeed(EngineStorage, EngineStorage.of({ db: options.db })),
    Layer.succeed(EngineBus, options.bus),
    clockLayer(options.clock),
    engineLogLayer(options.log),
    engineTracerLayer(),
    Layer.succeed(EngineProbe, EngineProbe.of({ notice: options.probe ?? (() => {}) })),
    Layer.succeed(EngineSettings, settings),
  );
  const services = Layer.mergeAll(
    LeaseStore.layer,
    AttemptLog.layer,
    AttemptOutcome.layer,
    ProviderChoice.layer({
      keys: options.providerKeys,
      registry: options.providerOptions,
      simulated: options.simulated,
    }),
  );
  return services.pipe(Layer.provideMerge(adapters));
}

/** The options a process's configuration gives (ENGINE_*, JOB_ACK_WAIT_MS, the provider keys). */
export function optionsFromCore(core: Core, log?: LogFn): EngineNodeOptions {
  const { config } = core;
  return {
    db: core.db,
    bus: core.bus,
    clock: core.clock,
    slots: config.engine.slots,
    providerKeys: config.providers.keys,
    providerOptions: { baseUrls: config.providers.baseUrls, models: config.providers.models },
    simulated: {
      firstTokenMs: config.simulated.firstTokenMs,
      tokensPerSecond: config.simulated.tokensPerSecond,
    },
    policy: { timeoutMs: config.engine.llmTimeoutMs, retries: 3, backoffMs: 500 },
    leaseMs: config.engine.leaseMs,
    jobAckWaitMs: config.engine.jobAckWaitMs,
    storageToleranceMs: config.engine.storageToleranceMs,
    maxInterruptions: config.engine.maxInterruptions,
    reconcile: { intervalMs: config.engine.reconcileIntervalMs, staleAfterMs: config.engine.staleAfterMs },
    scoreIntervalMs: config.engine.scoreIntervalMs,
    embedder: createEmbedder(config.providers),
    ...mailOptions(core, log),
    scheduler: {
      runDue: createScheduler({ db: core.db, clock: core.clock, creation: core.debates }).runDue,
      intervalMs: config.engine.schedulerIntervalMs,
    },
    blobs: core.blobs,
    webhooks: {
      policy: { allowHttp: config.webhooks.allowHttp, allowPrivate: config.webhooks.allowPrivate },
      intervalMs: config.webhooks.intervalMs,
      senders: config.webhooks.senders,
      retentionDays: config.webhooks.retentionDays,
    },
    auditRetentionDays: config.audit.retentionDays,
    debateEvents: config.debateEvents,
    // In embedded mode this is the only node: debates an earlier run left unfinished are its to resume.
    exclusive: config.nats.kind === 'memory',
    // Embedded, the node runs in the API's process, whose registry has the process's metrics.
    processMetrics: config.nats.kind !== 'memory',
    ...(log ? { log } : {}),
  };
}

/** The mailer's options when SMTP_URL is set (config requires EMAIL_LINK_SECRET with it). */
function mailOptions(core: Core, log?: LogFn): Pick<EngineNodeOptions, 'mail'> {
  const { email } = core.config;
  if (!email.smtpUrl || !email.linkSecret) return {};
  return {
    mail: {
      intervalMs: core.config.engine.mailIntervalMs,
      settings: {
        mailer: smtpMailer(email.smtpUrl, email.from),
        linkSecret: email.linkSecret,
        publicBaseUrl: core.config.publicBaseUrl,
        appUrl: core.config.appUrl,
        now: core.clock.now,
        onSendError: (err, notificationId) =>
          log?.('warn', `notification ${notificationId}: email refused; it is tried again later`, { err }),
      },
    },
  };
}
