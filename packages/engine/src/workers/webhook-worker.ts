import {
  type AttemptOutcome,
  anyDeliveryDue,
  type Clock,
  createWebhookSender,
  type Database,
  DELIVERY_TIMEOUT_MS,
  deliverNext,
  dispatchOutbox,
  pruneWebhookHistory,
  type SsrfPolicy,
  WEBHOOK_RETENTION_DAYS,
  type WebhookSender,
} from '@verdict/core';
import { Effect, Metric } from 'effect';
import { coreClock, elapsedReader } from '../clock.ts';
import { logLine } from '../logging.ts';
import { EngineProbe, EngineStorage } from '../services.ts';
import { storageFailure } from '../store/errors.ts';
import { superviseWorker, watchedWakeSignal } from './background-worker.ts';

/** How a node delivers webhooks. */
export type WebhookDeliveryOptions = {
  /** What outbound requests may reach (WEBHOOK_ALLOW_HTTP, WEBHOOK_ALLOW_PRIVATE). */
  policy: SsrfPolicy;
  /** The fan-out's period (default 500 ms). */
  intervalMs?: number;
  /**
   * How often an idle node looks for due deliveries the fan-out did not queue: retries coming due, pings and
   * redeliveries from the API, other nodes' fan-outs (default: `intervalMs`).
   */
  scoutMs?: number;
  /** Deliveries sent at once by this node (default 16): a slow receiver holds one sender, not all. */
  senders?: number;
  /** How long a claimed delivery stays the claimer's; after that another node sends it again. */
  claimMs?: number;
  /** Each attempt's limit (default and spec: 10 s). */
  timeoutMs?: number;
  /** Days finished deliveries (and their attempts) and handled outbox rows are kept (default 30). */
  retentionDays?: number;
  /** How often the node prunes what is older than that (default 10 min). */
  retentionIntervalMs?: number;
};

/** Each webhook delivery attempt this node made, by how it ended: delivered, retrying, failed (for good). */
export const deliveryAttempts = Metric.counter('verdict_webhook_delivery_attempts_total', {
  description:
    'Webhook delivery attempts, by outcome: delivered, retrying (failed, tried again later), failed (for good)',
  incremental: true,
});

const ATTEMPT_OUTCOMES: readonly AttemptOutcome[] = ['delivered', 'retrying', 'failed'];

const countAttempts = (outcomes: Map<AttemptOutcome, number>) =>
  Effect.forEach(outcomes, ([outcome, n]) =>
    Metric.update(Metric.withAttributes(deliveryAttempts, { outcome }), n),
  );

/** Outbox rows taken per transaction, and transactions per pass at most. */
const FAN_OUT_BATCH = 200;
const FAN_OUT_BATCHES = 20;
/**
 * A sender's pass claims no more deliveries after this long (wall time: it is about how long a stopping node
 * waits, which an injected clock does not change). A stopping node then waits for at most the send in flight
 * (its 10 s timeout) instead of a pass of hundreds of slow receivers.
 */
const PASS_BUDGET_MS = 5_000;
/** Rows pruned per statement, and statements per table and pass at most (so 20,000 rows a pass). */
const PRUNE_BATCH = 1000;
const PRUNE_BATCHES = 20;
const PRUNE_EVERY_MS = 600_000;
/** A lane's pause between passes while there is work (it then waits on the wake signal, not on a timer). */
const LANE_PAUSE_MS = 20;

/**
 * One fan-out pass: outbox rows to deliveries, batch after batch (core's webhooks/dispatch.ts), while batches
 * come full. Says how many rows it took and how many deliveries it queued.
 */
const fanOutPass = Effect.gen(function* () {
  const { db } = yield* EngineStorage;
  const clock = yield* coreClock;
  const pass = { taken: 0, queued: 0 };
  for (let i = 0; i < FAN_OUT_BATCHES; i++) {
    const batch = yield* Effect.tryPromise({
      try: () => dispatchOutbox(db, clock, FAN_OUT_BATCH),
      catch: storageFailure,
    });
    pass.taken += batch.taken;
    pass.queued += batch.queued;
    if (batch.taken < FAN_OUT_BATCH) break;
  }
  return pass;
});

/**
 * One retention pass: finished deliveries (with their attempts) and handled outbox rows older than
 * `retentionMs`, batch after batch while batches come full (core's webhooks/retention.ts).
 */
const prunePass = (retentionMs: number) =>
  Effect.gen(function* () {
    const { db } = yield* EngineStorage;
    const clock = yield* coreClock;
    let pruned = 0;
    for (let i = 0; i < PRUNE_BATCHES; i++) {
      const batch = yield* Effect.tryPromise({
        try: () => pruneWebhookHistory(db, clock, { retentionMs, batch: PRUNE_BATCH }),
        catch: storageFailure,
      });
      pruned += batch.deliveries + batch.outboxRows;
      if (batch.deliveries < PRUNE_BATCH && batch.outboxRows < PRUNE_BATCH) break;
    }
    return pruned;
  });

/**
 * Starts webhook delivery on this node: one fan-out worker, and `senders` lanes, each claiming one due
 * delivery at a time, sending it and recording the attempt, until none is due. Idle lanes sleep on a wake
 * signal (background-worker.ts#makeWakeSignal): the fan-out wakes them when it has queued deliveries, and one
 * scout looks for due deliveries each `scoutMs` (retries coming due, pings and redeliveries from the API,
 * other nodes' fan-outs) and wakes them, so an idle node makes two small queries per period instead of one
 * per lane. A lane that finds nothing puts the signal to sleep only if nothing woke it since its claim began,
 * so a delivery fanned out while that claim ran is not left to the scout. Sends are outside every
 * transaction and apart from the debates' fibers, so a slow receiver delays neither debates nor other
 * receivers beyond its own lane. A retention worker deletes finished deliveries and handled outbox rows
 * older than `retentionDays`. The HTTP agent closes with the node's scope.
 */
export const startWebhookDelivery = (options: WebhookDeliveryOptions) =>
  Effect.gen(function* () {
    // Every outcome a series at 0 from the start: a failure rate reads 0, not absent, before the first.
    yield* countAttempts(new Map([...ATTEMPT_OUTCOMES].map((outcome) => [outcome, 0])));
    const clock = yield* coreClock;
    const { db } = yield* EngineStorage;
    yield* warnIfRelaxed(options.policy);
    const every = options.intervalMs ?? 500;
    const timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS;
    // A send never outlasts its timeout; the margin covers recording it. A claim that still runs out costs a
    // second send of the same delivery (same webhook-id), which receivers drop.
    const claimMs = options.claimMs ?? timeoutMs + 5_000;
    const sender = yield* Effect.acquireRelease(
      Effect.sync(() => createWebhookSender(options.policy, { now: clock.now, timeoutMs })),
      (s) => Effect.promise(() => s.close()),
    );
    /** Awake while there may be due deliveries: lanes drain them, and one that finds none puts it to sleep. */
    const probe = yield* EngineProbe;
    const work = yield* watchedWakeSignal((awake) =>
      probe.notice({ _tag: awake ? 'WebhookSendersWoken' : 'WebhookSendersAsleep' }),
    );
    yield* superviseWorker({
      name: 'webhook-dispatch',
      // Rows of events no webhook wants (most rows, for users without webhooks) wake no lane.
      pass: fanOutPass.pipe(
        Effect.tap(({ queued }) => (queued > 0 ? work.wake : Effect.void)),
        Effect.tap(({ taken, queued }) =>
          Effect.sync(() => probe.notice({ _tag: 'WebhookFannedOut', taken, queued })),
        ),
        Effect.map(({ taken }) => taken),
      ),
      every,
    });
    yield* superviseWorker({
      name: 'webhook-scout',
      pass: Effect.tryPromise({ try: () => anyDeliveryDue(db, clock), catch: storageFailure }).pipe(
        Effect.tap((due) => (due ? work.wake : Effect.void)),
        Effect.map((due) => (due ? 1 : 0)),
      ),
      every: options.scoutMs ?? every,
    });
    yield* superviseWorker({
      name: 'webhook-retention',
      pass: prunePass((options.retentionDays ?? WEBHOOK_RETENTION_DAYS) * 86_400_000),
      every: options.retentionIntervalMs ?? PRUNE_EVERY_MS,
    });
    const sendPass = yield* sendPassOf({ db, clock, sender, claimMs, work });
    // A lane still sending keeps draining; the scout wakes the lanes within a period if work remains.
    for (let lane = 0; lane < (options.senders ?? 16); lane++) {
      yield* superviseWorker({
        name: 'webhook-delivery',
        gate: work.gate,
        pass: sendPass.pipe(
          Effect.tap(({ sent, seen }) => (sent === 0 ? work.sleepUnlessWoken(seen) : Effect.void)),
          Effect.map(({ sent }) => sent),
        ),
        every: LANE_PAUSE_MS,
      });
    }
  });

const warnIfRelaxed = (policy: WebhookDeliveryOptions['policy']) =>
  policy.allowHttp || policy.allowPrivate
    ? logLine(
        'warn',
        'webhooks: the SSRF guard is relaxed (WEBHOOK_ALLOW_HTTP / WEBHOOK_ALLOW_PRIVATE): development only',
        { allowHttp: policy.allowHttp, allowPrivate: policy.allowPrivate },
      )
    : Effect.void;

/**
 * One lane's pass: due deliveries, one after another, until none is due or the pass's budget is spent.
 * Answers what it sent and the wake count noted before its last claim.
 */
const sendPassOf = (on: {
  db: Database;
  clock: Clock;
  sender: WebhookSender;
  claimMs: number;
  work: { wakes: () => number };
}) =>
  Effect.map(elapsedReader, (elapsed) =>
    Effect.tryPromise({
      try: async () => {
        const started = elapsed();
        let sent = 0;
        const outcomes = new Map<AttemptOutcome, number>();
        // Noted before each claim: the last, empty one is what the lane's going to sleep rests on.
        let seen = on.work.wakes();
        while (elapsed() - started < PASS_BUDGET_MS) {
          seen = on.work.wakes();
          const outcome = await deliverNext(on.db, on.clock, on.sender, on.claimMs);
          if (!outcome) break;
          outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
          sent++;
        }
        return { sent, seen, outcomes };
      },
      catch: storageFailure,
    }).pipe(Effect.tap(({ outcomes }) => countAttempts(outcomes))),
  );
