import { auditOf } from './audit-section.ts';
import { ConfigError } from './config-error.ts';
import type { Config } from './config-types.ts';
import { EnvSchema } from './env-schema.ts';
import { providerConfig } from './provider-env.ts';
import { addressesOf, billingOf, engineOf, storageOf, webhooksOf } from './sections.ts';

export type { BillingConfig, Config } from './config-types.ts';
export { ConfigError };

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
  if (e.DATABASE_REPLICA_URL && !e.DATABASE_URL) {
    throw new ConfigError(
      'Invalid environment:\n  DATABASE_REPLICA_URL: needs DATABASE_URL (an embedded database has no replicas)',
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
    audit: auditOf(e),
    debateEvents: { retentionDays: e.DEBATE_EVENTS_RETENTION_DAYS ?? null },
    sso: {
      secretKey: e.SSO_SECRET_KEY ?? null,
      allowHttp: e.SSO_ALLOW_HTTP,
      allowPrivate: e.SSO_ALLOW_PRIVATE,
    },
  };
}
