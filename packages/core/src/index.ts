export type { Accounts, IssuedSession, NewUser } from './accounts/accounts.ts';
export type { AccountTables } from './accounts/tables.ts';
export {
  ATTACHMENT_PROMPT_BUDGET,
  type AttachmentExcerpt,
  attachmentExcerptsFor,
} from './attachments/agent-context.ts';
export type { AttachmentDownload, Attachments, UploadedFile } from './attachments/attachments.ts';
export {
  type BlobStore,
  databaseBlobStore,
  type FilesystemBlobStore,
  filesystemBlobStore,
} from './attachments/blob-store.ts';
export { extractPendingAttachments } from './attachments/extraction.ts';
export { CONTENT_TYPES as ATTACHMENT_CONTENT_TYPES } from './attachments/file-types.ts';
export { type AuditOwner, chainOf } from './audit/audit-chains.ts';
export { type AuditChanges, changesOf, type FieldChange } from './audit/audit-changes.ts';
export {
  type AuditActor,
  type AuditContext,
  type AuditOrigin,
  auditContext,
  withAuditContext,
} from './audit/audit-context.ts';
export { chainPages } from './audit/chain-pages.ts';
export { pruneAuditChain } from './audit/prune-audit-chain.ts';
export { type AuditRecord, recordAudit } from './audit/record-audit.ts';
export type { AuditTables } from './audit/tables.ts';
export { type BrokenEntry, type ChainVerification, verifyAuditChain } from './audit/verify-audit-chain.ts';
export { type AuditTrail, createAuditTrail } from './audit-trails/audit-trail.ts';
export { EXPORT_PAGE as AUDIT_EXPORT_PAGE } from './audit-trails/export-audit-entries.ts';
export { pruneAuditTrails } from './audit-trails/prune-audit-trails.ts';
export { chooseFunding } from './billing/funding.ts';
export {
  type Billing,
  chargedFor,
  lockChargedAccounts,
  refundDebate,
  refundUnspokenRounds,
} from './billing/ledger.ts';
export { assertPlanIncludes, createPlanGates, hasSeatFor, type PlanGates } from './billing/plan-gates.ts';
export type { BillingTables } from './billing/tables.ts';
export { memoryBus } from './bus/memory.ts';
export type { NatsBus, NatsBusOptions } from './bus/nats.ts';
export { natsBus } from './bus/nats-on-demand.ts';
export type {
  Bus,
  CommandBus,
  CommandReply,
  DebateCommand,
  DebateJob,
  EventBus,
  JobConsumer,
  JobHandle,
  JobQueue,
  KeyCourier,
  TransitionRecord,
} from './bus/ports.ts';
export { type JobTrace, type TraceCarrier, withRequestId } from './bus/trace-carrier.ts';
export { nudgeMemoryReducer } from './composition/memory-reducer-nudge.ts';
export { onShutdownSignal } from './composition/shutdown-signals.ts';
export { type Config, ConfigError, loadConfig } from './config/config.ts';
export { type Core, type CoreOptions, createCore, type Services } from './core.ts';
export { openServiceDatabase as openDatabase } from './database.ts';
export { type CreatedDatabase, createNamedDatabase } from './db/create-database.ts';
export { query, type TablesOf } from './db/kysely.ts';
export type { Database, OpenDatabaseOptions } from './db/orm.ts';
export { defaultTemplatesDir, prepareTemplate } from './db/pglite-template.ts';
export { prepared } from './db/prepared-statements.ts';
export { type EndPresence, type HoldPresence, PRESENCE_LOCK_CLASS } from './db/presence.ts';
export {
  QueryOutsideTransactionError,
  type TransactionTimeout,
  TransactionTimeoutError,
} from './db/transaction-guard.ts';
export { unexpectedFailure } from './db/unexpected-failure.ts';
export {
  type CreationResult,
  createDebateCreation,
  type DebateCreation,
  type DebateRequest,
} from './debates/creation.ts';
export type { Debate } from './debates/debate.entity.ts';
export { createDebateAccess, type DebateAccess, type Disclosure } from './debates/debate-access.ts';
export type { DebateInspection } from './debates/debate-control.ts';
export type { DebateEvents, StoredEvent, TimedEvent } from './debates/debate-events.ts';
export { createDebateReads, type DebateReads } from './debates/debate-reads.ts';
export { requeue as debateRequeue } from './debates/debate-record.ts';
export { toDebateObject } from './debates/debate-view.ts';
export type { FeedFollower } from './debates/event-fanout.ts';
export { type ByokKeys, parseProviderKeysHeader } from './debates/provider-keys-header.ts';
export type { DebateTables } from './debates/tables.ts';
export {
  type DebateEventsMaintenance,
  type MaintenancePass,
  maintainDebateEvents,
} from './debates/transcripts/maintain-debate-events.ts';
export {
  DataDirInUseError,
  type DataDirLock,
  type LockHolder,
  type LockRole,
  liveHolder,
  lockDataDir,
} from './embedded/data-dir-lock.ts';
export {
  type CitationMention,
  checkCitations,
  citationsInText,
  withGrounded,
} from './evidence/citation-check.ts';
export {
  type BuildCorpusOptions,
  buildCorpus,
  type CorpusPassage,
  detectTextLanguage,
  EVIDENCE_PROMPT_BUDGET,
  passagesByNumber,
  type RetrievalRequest,
  readCorpus,
  releaseCorpusIndex,
  retrievePassages,
  TEXT_LANGUAGES,
  type TextLanguage,
} from './evidence/corpus.ts';
export {
  type CitingClaim,
  keyEvidenceFrom,
  type PassageText,
} from './evidence/key-evidence.ts';
export { quoteOffsetIn } from './evidence/quote-match.ts';
export type { ApiKeys, KeyPrincipal } from './keys/api-keys.ts';
export { KEY_PREFIX } from './keys/api-keys.ts';
export {
  checkedAddressOf,
  refusalOfAddress,
  refusalOfUrl,
  type SsrfPolicy,
  SsrfRefusedError,
  ssrfGuardedAgent,
} from './net/ssrf-guard.ts';
export {
  MAIL_ATTEMPTS,
  type MailSettings,
  notificationEmail,
  pendingEmails,
  sendDueEmails,
} from './notifications/mail-outbox.ts';
export { type Mailer, type MailMessage, smtpMailer } from './notifications/mailer.ts';
export type { NotificationMark, Notifications } from './notifications/notifications.ts';
export { unsubscribeToken } from './notifications/unsubscribe-token.ts';
export { createLogger, type Logger, type LoggerSettings, serializeError } from './observability/logger.ts';
export {
  Counter,
  createMetricsRegistry,
  Gauge,
  Histogram,
  type Registry,
  scraperHoldsToken,
} from './observability/metrics.ts';
export { READINESS_TIMEOUT_MS, type Readiness } from './observability/readiness.ts';
export {
  cachedRead,
  debatesByStatus,
  type WorkBacklog,
  workBacklog,
} from './observability/scrape-reads.ts';
export {
  installTracing,
  otlpTracesUrl,
  startTracing,
  type Tracing,
  tracingOn,
} from './observability/tracing.ts';
export {
  type DebateWebhookEvent,
  queueDebateWebhook,
  queueDebateWebhooksFrom,
} from './outbox/webhook-outbox.ts';
export { CALIBRATION_RULES, calibrate } from './outcomes/calibration/calibration-model.ts';
export {
  FIT_WINDOW,
  GLOBAL_REFIT_MINUTES,
  ownerCalibration,
} from './outcomes/calibration/calibration-store.ts';
export { openPendingOutcome, openPendingOutcomesFrom } from './outcomes/outcomes.ts';
export { queueScoreRefreshesFrom } from './outcomes/score-queue.ts';
export { refreshDueScores, refreshScore } from './outcomes/scores.ts';
export { type CounterStore, memoryCounterStore, postgresCounterStore } from './ratelimit/counter-store.ts';
export { hitFixedWindow, hitSlidingWindow, type LimitDecision } from './ratelimit/limiters.ts';
export {
  ANONYMOUS_READ_LIMIT,
  accountRateLimit,
  type BudgetDecision,
  createRateLimits,
  keyRateLimit,
  LOGIN_FAILURE_LIMITS,
  PUBLIC_IP_LIMIT,
  type RateLimits,
  type RequestPrincipal,
  rateLimitedError,
  rateLimitHeaders,
} from './ratelimit/rate-limits.ts';
export { LIMIT_KINDS, type LimitKind, onLimitRefusal } from './ratelimit/refusals.ts';
export { buildArgumentGraph, citationsIn, type SpokenClaim } from './reactions/argument-graph.ts';
export * from './routing/index.ts';
export { nextRunAfter, type ScheduleTiming } from './scheduled-debates/next-run.ts';
export type { ScheduledDebates } from './scheduled-debates/scheduled-debates.ts';
export { createScheduler, type RunOutcome, type Scheduler } from './scheduled-debates/scheduler.ts';
export type { ScheduleTables } from './scheduled-debates/tables.ts';
export { AppError, type AppErrorOptions } from './shared/app-error.ts';
export { type Clock, systemClock } from './shared/clock.ts';
export { OperatorError } from './shared/operator-error.ts';
export { withTimeout } from './shared/with-timeout.ts';
export {
  type EmbedFailure,
  type EmbedPass,
  embedCompletedDebates,
} from './similar/embed-completed.ts';
export { type Embedder, unitVector } from './similar/embedder.ts';
export {
  dropStaleEmbeddings,
  EMBEDDING_BACKLOG_DAYS,
  queueEmbedding,
  queueEmbeddingsFrom,
} from './similar/embedding-queue.ts';
export { type SignedIn, type Sso, SsoRefused, type StartedSignIn } from './sso/sso.ts';
export type { SsoTables } from './sso/tables.ts';
export { type KeyUsage, usagePeriod } from './usage/usage.ts';
export { type AttemptOutcome, anyDeliveryDue, deliverNext } from './webhooks/deliveries.ts';
export { type AttemptResult, DELIVERY_TIMEOUT_MS } from './webhooks/delivery-policy.ts';
export { dispatchOutbox } from './webhooks/dispatch.ts';
export { type Pruned, pruneWebhookHistory, WEBHOOK_RETENTION_DAYS } from './webhooks/retention.ts';
export { createWebhookSender, type OutgoingDelivery, type WebhookSender } from './webhooks/sender.ts';
export type { WebhookTables } from './webhooks/tables.ts';
export type { Webhooks } from './webhooks/webhooks.ts';
