import { join } from 'node:path';
import { createAccounts } from './accounts/accounts.ts';
import { createAttachments } from './attachments/attachments.ts';
import { type BlobStore, databaseBlobStore, filesystemBlobStore } from './attachments/blob-store.ts';
import type { PageFetchOptions } from './attachments/page-fetch.ts';
import { createCheckout } from './billing/checkout.ts';
import { createInvoices } from './billing/invoices.ts';
import { createBilling, openAccount } from './billing/ledger.ts';
import { createPlanGates } from './billing/plan-gates.ts';
import { createStripeWebhooks } from './billing/stripe/webhook.ts';
import { memoryBus } from './bus/memory.ts';
import { natsBus } from './bus/nats-on-demand.ts';
import type { Bus } from './bus/ports.ts';
import { createChains } from './chains/chains.ts';
import { createCollections } from './collections/collections.ts';
import { createComments } from './comments/comments.ts';
import type { Config } from './config/config.ts';
import { openServiceDatabase } from './database.ts';
import type { Database } from './db/orm.ts';
import type { TransactionTimeout } from './db/transaction-guard.ts';
import { createDebateCreation } from './debates/creation.ts';
import { createDebateAccess } from './debates/debate-access.ts';
import { createDebateAnalytics } from './debates/debate-analytics.ts';
import { createDebateControl } from './debates/debate-control.ts';
import { createDebateEvents } from './debates/debate-events.ts';
import { createDebateReads } from './debates/debate-reads.ts';
import { createWorkspaceDebates } from './debates/workspace-debates.ts';
import type { DataDirLock, LockRole } from './embedded/data-dir-lock.ts';
import { createApiKeys } from './keys/api-keys.ts';
import { createNotifications } from './notifications/notifications.ts';
import { createOutcomes } from './outcomes/outcomes.ts';
import { createScores, refreshScore } from './outcomes/scores.ts';
import { createStreaks } from './outcomes/streaks.ts';
import { type CounterStore, memoryCounterStore, postgresCounterStore } from './ratelimit/counter-store.ts';
import { createRateLimits } from './ratelimit/rate-limits.ts';
import { createPolls } from './reactions/polls.ts';
import { createArgumentVotes } from './reactions/votes.ts';
import { createRecommendations } from './recommendations/recommendations.ts';
import { createScheduledDebates } from './scheduled-debates/scheduled-debates.ts';
import { createSearch } from './search/search.ts';
import { type Clock, systemClock } from './shared/clock.ts';
import { createForks } from './sharing/forks.ts';
import { createSharing } from './sharing/sharing.ts';
import { createViewCounter } from './sharing/view-counter.ts';
import type { Embedder } from './similar/embedder.ts';
import { createSimilar } from './similar/similar.ts';
import { createUsage } from './usage/usage.ts';
import { createWebhooks } from './webhooks/webhooks.ts';
import { createWorkspaceMembers } from './workspaces/workspace-members.ts';
import { createWorkspaces } from './workspaces/workspaces.ts';

export type CoreOptions = {
  clock?: Clock;
  /** Where background failures (counter sweeps …) are reported. */
  onBackgroundError?: (err: unknown) => void;
  /**
   * Counter store for rate limits. Defaults to memory in embedded mode and Postgres in distributed mode
   * (DATABASE_URL set), so limits hold across API processes.
   */
  counters?: 'memory' | 'database';
  /** Informational messages of the persistence layer (migrations applied, embedded database created). */
  log?: (message: string) => void;
  /** Told of each database transaction rolled back for being open past DB_TRANSACTION_TIMEOUT_MS. */
  onTransactionTimeout?: (report: TransactionTimeout) => void;
  /** Embedded mode: the DATA_DIR lock the caller already holds, or the role to take it as (`server`). */
  dataDirLock?: DataDirLock;
  lockRole?: LockRole;
  /** Embeds text for similar-debate lookups (the engine's createEmbedder); none: nothing is similar. */
  embedder?: Embedder | null;
  /** POST /api/debates/fetch-url's limits and SSRF policy beyond the configuration's (tests shorten them). */
  pageFetch?: Partial<PageFetchOptions>;
};

/** The domain services of one process, wired to its adapters. Built once by each composition root. */
export type Core = Awaited<ReturnType<typeof createCore>>;

/**
 * What request handlers may use: the domain services, without the database, the bus or the clock they are
 * built on (those are for composition roots, the engine's layers and tests).
 */
export type Services = Omit<Core, 'db' | 'bus' | 'clock' | 'close' | 'blobs'>;

export async function createCore(config: Config, options: CoreOptions = {}) {
  const clock = options.clock ?? systemClock;
  const onError = options.onBackgroundError ?? (() => {});
  const db: Database = await openServiceDatabase(config.database, {
    log: options.log,
    lock: options.dataDirLock,
    lockRole: options.lockRole,
    templates: config.pgliteTemplates,
    transactionTimeoutMs: config.transactionTimeoutMs,
    onTransactionTimeout: options.onTransactionTimeout,
  });
  const useDatabaseCounters =
    (options.counters ?? (config.database.kind === 'postgres' ? 'database' : 'memory')) === 'database';
  const counters: CounterStore = useDatabaseCounters
    ? postgresCounterStore(db, onError)
    : memoryCounterStore(clock.now);
  const bus: Bus =
    config.nats.kind === 'nats'
      ? await natsBus({
          servers: config.nats.servers,
          prefix: config.natsPrefix,
          jobAckWaitMs: config.engine.jobAckWaitMs,
          onTrouble: (message, cause) => onError(new Error(`bus: ${message}`, { cause })),
        }).catch(async (error: unknown) => {
          await db.close();
          throw error;
        })
      : memoryBus();
  const debateAccess = createDebateAccess(db);
  const debateReads = createDebateReads(db, clock, debateAccess);
  const debateCreation = createDebateCreation(db, bus, clock, config, onError);
  const views = createViewCounter(db, onError);
  const notifications = createNotifications(
    db,
    clock,
    bus.notifications,
    { linkSecret: config.email.linkSecret },
    onError,
  );
  // Emails are queued only when the service can send them; the engine nodes' mailer sends them.
  const email = { emailEnabled: config.email.smtpUrl !== null };
  const similar = createSimilar(db, options.embedder ?? null);
  const plans = createPlanGates(config.appUrl);
  // Embedded mode keeps attachment bytes as files beside its database; PostgreSQL keeps them in rows, which
  // every API process and engine node reads alike (attachments/blob-store.ts).
  const fileBlobs =
    config.database.kind === 'pglite'
      ? filesystemBlobStore(join(config.database.dataDir, 'attachments'), db, onError)
      : null;
  const blobs: BlobStore = fileBlobs ?? databaseBlobStore(db);
  const usage = createUsage(db, clock, onError);
  const collections = createCollections(db, clock);
  return {
    config,
    clock,
    db,
    bus,
    debateAccess,
    debateReads,
    debateEvents: createDebateEvents(db, bus.events),
    /** Readiness: resolves when the database answers within two seconds. */
    checkDatabase: () => db.ping(2000),
    // A deleted debate's outcome leaves its owner's score at once (the outcome row goes with the debate),
    // and its collections close the gap it leaves.
    debateControl: createDebateControl(debateAccess, bus, db, {
      beforeRemoval: collections.dropDebates,
      afterRemoval: refreshScore,
    }),
    debateCreation,
    debateAnalytics: createDebateAnalytics(db, debateAccess),
    accounts: createAccounts(db, clock, config.sessionTtlMs, { onAccountCreated: openAccount }),
    billing: createBilling(db, clock),
    apiKeys: createApiKeys(db, clock),
    rateLimits: createRateLimits(counters, clock, config.rateLimits),
    outcomes: createOutcomes(db, clock),
    argumentVotes: createArgumentVotes(db, clock, debateAccess),
    polls: createPolls(db, clock, debateAccess),
    scores: createScores(db, clock),
    streaks: createStreaks(db, clock),
    collections,
    chains: createChains(db, clock),
    sharing: createSharing(db, clock, debateAccess, views, config.appUrl),
    forks: createForks(db, clock, debateCreation.create, notifications, email),
    comments: createComments(db, clock, debateAccess, notifications, email),
    notifications,
    recommendations: createRecommendations(db, clock),
    plans,
    workspaces: createWorkspaces(db, clock, plans),
    workspaceMembers: createWorkspaceMembers(db, clock, plans),
    // Deleting a workspace deletes its debates: they leave their collections, and their owners' scores are
    // recomputed, in the same transaction.
    workspaceDebates: createWorkspaceDebates(db, bus, debateAccess, plans.upgradeUrl, {
      beforeRemoval: collections.dropDebates,
      afterRemoval: refreshScore,
    }),
    similar,
    search: createSearch(db, clock, {
      // Semantic hits only add to search: a failing embedding provider, or lookups busy elsewhere, leave it
      // its keyword results.
      semanticHits: async (userId, q, limit) => {
        try {
          const nearest = await similar.hitsForSearch(userId, q, limit);
          return nearest.map((row) => ({ id: row.id, similarity: Number(row.similarity) }));
        } catch (error) {
          onError(error);
          return [];
        }
      },
    }),
    usage,
    scheduledDebates: createScheduledDebates(db, clock),
    checkout: createCheckout(db, clock, config.billing, config.appUrl),
    invoices: createInvoices(db),
    stripeWebhooks: createStripeWebhooks(db, clock, config.billing),
    webhooks: createWebhooks(db, clock, config.webhooks),
    /** Where attachment bytes live: for the engine nodes' extraction worker of this process. */
    blobs,
    // Pages are fetched over http or https (page-fetch.ts), under the webhooks' address rules:
    // WEBHOOK_ALLOW_PRIVATE relaxes both alike; WEBHOOK_ALLOW_HTTP is the webhooks' alone.
    attachments: createAttachments(db, clock, plans, blobs, debateAccess, {
      ...options.pageFetch,
      policy: {
        allowPrivate: config.webhooks.allowPrivate,
        ...options.pageFetch?.policy,
      },
    }),
    close: async () => {
      fileBlobs?.close();
      await views.close();
      await usage.close();
      await counters.close();
      await bus.close();
      await db.close();
    },
  };
}
