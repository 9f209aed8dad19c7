import type { Plan } from '@verdict/contracts';
import type { Env } from './env-schema.ts';
import type { ProviderConfig } from './provider-env.ts';

/**
 * The service's settings as `loadConfig` reads them from the environment. Types alone, in their own module:
 * `loadConfig` builds a `Config` from the sections (`sections.ts`), and the sections return parts of it.
 */
export type Config = {
  port: number;
  host: string;
  /** STREAMS: the HTTP server the API runs on (apps/api/src/http/uws/choose-server.ts). */
  streams: Env['STREAMS'];
  /** DIRECT_READS: plain reads answered without Fastify's pipeline (apps/api/src/http/direct-reads.ts). */
  directReads: boolean;
  /** PUBLIC_BASE_URL, else `http://localhost:$PORT`: links made without a request (emails, webhooks). */
  publicBaseUrl: string;
  /** APP_URL, else publicBaseUrl. */
  appUrl: string;
  /**
   * Which links in an answer take the origin the request came to instead (the API's trpc/request-links.ts):
   * the API's own (streamUrl) while PUBLIC_BASE_URL is unset, the web app's (shareUrl, upgradeUrl) while
   * APP_URL is unset too. A configured address always wins.
   */
  linksFollowRequest: { api: boolean; app: boolean };
  secureCookies: boolean;
  /** Origins of browser apps trusted with CORS and cookie-authenticated writes. */
  corsOrigins: string[];
  /** Fastify's trustProxy: which X-Forwarded-For hops give the client address (TRUST_PROXY). */
  trustProxy: boolean | number | string[];
  requestTimeoutMs: number;
  /** The bearer token GET /metrics asks of a scraper; null: no /metrics. */
  metricsToken: string | null;
  /** The port an engine process serves GET /metrics, /health and /ready on; null: none. */
  metricsPort: number | null;
  /** SIGTERM: how long /ready says draining before the listener closes, and how long what runs may finish. */
  shutdown: { delayMs: number; graceMs: number };
  /** DB_TRANSACTION_TIMEOUT_MS: how long a database transaction may stay open before it is rolled back. */
  transactionTimeoutMs: number;
  database: { kind: 'postgres'; url: string; schema: string } | { kind: 'pglite'; dataDir: string };
  /**
   * DATABASE_REPLICA_URL / DATABASE_REPLICA_MAX_LAG_MS: the streaming replica the read-heavy routes read
   * from, and how far behind it may fall before they read the primary instead; null: the primary serves all.
   */
  readReplica: { url: string; maxLagMs: number } | null;
  /** PGLITE_TEMPLATES: where prepared embedded databases are kept (undefined: next to PGlite). */
  pgliteTemplates: string | undefined;
  /** NATS_URL's servers, and NATS_STREAM_REPLICAS: the copies of each JetStream stream. */
  nats: { kind: 'nats'; servers: string[]; streamReplicas: number | undefined } | { kind: 'memory' };
  logLevel: Env['LOG_LEVEL'];
  bodyLimitBytes: number;
  sessionTtlMs: number;
  rateLimits: {
    registrationsPerHour: number;
    streamOpensPerMinute: number;
    sessionRequestsPerMinute: number;
    publicReadsPerMinute: number;
  };
  /** Notification email; `smtpUrl` null means none is sent. */
  email: { smtpUrl: string | null; from: string; linkSecret: string | null };
  natsPrefix: string;
  engine: {
    slots: number;
    jobAckWaitMs: number;
    leaseMs: number;
    llmTimeoutMs: number;
    storageToleranceMs: number;
    maxInterruptions: number;
    reconcileIntervalMs: number;
    /** How often each node's score worker looks for outcome events to take into scores. */
    scoreIntervalMs: number;
    /** How often each node's mailer looks for notification emails to send. */
    mailIntervalMs: number;
    staleAfterMs: number;
    /** How often each node's scheduler looks for due scheduled debates. */
    schedulerIntervalMs: number;
  };
  /** The service's own provider keys (never logged), endpoints, model ids and embedding choice. */
  providers: ProviderConfig;
  simulated: { firstTokenMs: number; tokensPerSecond: number };
  debates: { freeMonthly: number; concurrentLimit: number; cacheTtlMs: number };
  billing: BillingConfig;
  /**
   * User webhooks: what the SSRF guard relaxes (development only), the dispatcher's period, the senders per
   * node, and how many days finished deliveries and handled outbox rows are kept.
   */
  webhooks: {
    allowHttp: boolean;
    allowPrivate: boolean;
    intervalMs: number;
    senders: number;
    retentionDays: number;
  };
  /** Days `debate_events` rows are kept past their month (DEBATE_EVENTS_RETENTION_DAYS); null: forever. */
  debateEvents: { retentionDays: number | null };
  /** Days each plan's audit entries are kept (the plan table's, or AUDIT_RETENTION_DAYS'), each at least 30. */
  audit: { retentionDays: Record<Plan, number> };
  /** Single sign-on: the key that seals client secrets (none: OIDC secrets cannot be saved), and what the SSRF guard relaxes. */
  sso: { secretKey: string | null; allowHttp: boolean; allowPrivate: boolean };
};

/** The payment processor's settings; each null piece turns off what needs it (503 BILLING_NOT_CONFIGURED). */
export type BillingConfig = {
  secretKey: string | null;
  webhookSecret: string | null;
  /** STRIPE_API_URL split as the SDK takes it; null: the processor's own address. */
  api: { protocol: 'http' | 'https'; host: string; port: number } | null;
  prices: {
    byok: string | null;
    byok_pro: string | null;
    credits_100: string | null;
    credits_500: string | null;
    credits_2000: string | null;
  };
};
