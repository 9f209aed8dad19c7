import { ConfigError } from './config-error.ts';
import { type Env, EnvSchema } from './env-schema.ts';
import { type ProviderConfig, providerConfig } from './provider-env.ts';
import { addressesOf, billingOf, engineOf, storageOf, webhooksOf } from './sections.ts';

export { ConfigError };

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
  /** PGLITE_TEMPLATES: where prepared embedded databases are kept (undefined: next to PGlite). */
  pgliteTemplates: string | undefined;
  nats: { kind: 'nats'; servers: string[] } | { kind: 'memory' };
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

/**
 * Validates the environment once, at start. This is the only place that reads `process.env`; everything
 * else receives a `Config`. Every problem is reported at once, one variable a line.
 */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = EnvSchema.safeParse(env);
  const providers = providerConfig(env);
  const lines = [
    ...(parsed.error?.issues ?? []).map((issue) => `  ${issue.path.join('.')}: ${issue.message}`),
    ...providers.problems,
  ];
  if (!parsed.success || lines.length > 0) {
    throw new ConfigError(`Invalid environment:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  if (e.SMTP_URL && !e.EMAIL_LINK_SECRET) {
    throw new ConfigError(
      'Invalid environment:\n  EMAIL_LINK_SECRET: required with SMTP_URL (it signs unsubscribe links)',
    );
  }
  return {
    ...addressesOf(e),
    ...storageOf(e),
    streams: e.STREAMS,
    directReads: e.DIRECT_READS,
    requestTimeoutMs: e.REQUEST_TIMEOUT_MS,
    metricsToken: e.METRICS_TOKEN ?? null,
    metricsPort: e.METRICS_PORT ?? null,
    shutdown: { delayMs: e.SHUTDOWN_DELAY_MS, graceMs: e.SHUTDOWN_GRACE_MS },
    transactionTimeoutMs: e.DB_TRANSACTION_TIMEOUT_MS,
    logLevel: e.LOG_LEVEL,
    bodyLimitBytes: e.BODY_LIMIT_BYTES,
    sessionTtlMs: e.SESSION_TTL_DAYS * 86_400_000,
    rateLimits: {
      registrationsPerHour: e.REGISTER_LIMIT_PER_HOUR,
      streamOpensPerMinute: e.STREAM_OPENS_PER_MINUTE,
      sessionRequestsPerMinute: e.SESSION_REQUESTS_PER_MINUTE,
      publicReadsPerMinute: e.PUBLIC_READS_PER_MINUTE,
    },
    email: { smtpUrl: e.SMTP_URL ?? null, from: e.EMAIL_FROM, linkSecret: e.EMAIL_LINK_SECRET ?? null },
    engine: engineOf(e),
    providers: providers.config,
    simulated: { firstTokenMs: e.SIMULATED_FIRST_TOKEN_MS, tokensPerSecond: e.SIMULATED_TOKENS_PER_SECOND },
    debates: {
      freeMonthly: e.FREE_MONTHLY_DEBATES,
      concurrentLimit: e.CONCURRENT_DEBATES,
      cacheTtlMs: e.DEBATE_CACHE_HOURS * 3_600_000,
    },
    billing: billingOf(e),
    webhooks: webhooksOf(e),
  };
}
