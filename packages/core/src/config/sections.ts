import { resolve } from 'node:path';
import { ConfigError } from './config-error.ts';
import type { BillingConfig, Config } from './config-types.ts';
import type { Env } from './env-schema.ts';
import { readFlag } from './flag.ts';

/**
 * The sections of the configuration, each from the validated environment: where the service answers and
 * whom it trusts, where its data and bus are, the engine's timings, billing and webhooks.
 */

type Addresses = Pick<
  Config,
  | 'port'
  | 'host'
  | 'publicBaseUrl'
  | 'appUrl'
  | 'linksFollowRequest'
  | 'secureCookies'
  | 'corsOrigins'
  | 'trustProxy'
>;

/** Where the service answers, the addresses its links use, and whom it trusts (CORS, proxies). */
export function addressesOf(e: Env): Addresses {
  const publicBaseUrl = stripSlash(e.PUBLIC_BASE_URL ?? `http://localhost:${e.PORT}`);
  const appUrl = stripSlash(e.APP_URL ?? publicBaseUrl);
  const corsOrigins = e.CORS_ORIGINS
    ? e.CORS_ORIGINS.split(',')
        .map((origin) => origin.trim())
        .filter(Boolean)
    : [new URL(appUrl).origin];
  const badOrigin = corsOrigins.find((origin) => !isOrigin(origin));
  if (badOrigin !== undefined) {
    throw new ConfigError(
      `Invalid environment:\n  CORS_ORIGINS: "${badOrigin}" is not an origin (scheme://host[:port])`,
    );
  }
  return {
    port: e.PORT,
    host: e.HOST,
    publicBaseUrl,
    appUrl,
    linksFollowRequest: {
      api: e.PUBLIC_BASE_URL === undefined,
      app: e.PUBLIC_BASE_URL === undefined && e.APP_URL === undefined,
    },
    secureCookies: publicBaseUrl.startsWith('https://'),
    corsOrigins,
    trustProxy: trustProxyOf(e.TRUST_PROXY),
  };
}

/** PostgreSQL when DATABASE_URL is set, else embedded PGlite in DATA_DIR; NATS when NATS_URL is set. */
export function storageOf(
  e: Env,
): Pick<Config, 'database' | 'readReplica' | 'pgliteTemplates' | 'nats' | 'natsPrefix'> {
  return {
    readReplica:
      e.DATABASE_URL && e.DATABASE_REPLICA_URL
        ? { url: e.DATABASE_REPLICA_URL, maxLagMs: e.DATABASE_REPLICA_MAX_LAG_MS }
        : null,
    database: e.DATABASE_URL
      ? { kind: 'postgres', url: e.DATABASE_URL, schema: e.DATABASE_SCHEMA }
      : { kind: 'pglite', dataDir: resolve(e.DATA_DIR) },
    pgliteTemplates: e.PGLITE_TEMPLATES === undefined ? undefined : resolve(e.PGLITE_TEMPLATES),
    nats: e.NATS_URL
      ? {
          kind: 'nats',
          servers: e.NATS_URL.split(',').map((s) => s.trim()),
          streamReplicas: e.NATS_STREAM_REPLICAS,
        }
      : { kind: 'memory' },
    natsPrefix: e.NATS_PREFIX,
  };
}

export function engineOf(e: Env): Config['engine'] {
  return {
    slots: e.ENGINE_SLOTS,
    jobAckWaitMs: e.JOB_ACK_WAIT_MS,
    leaseMs: e.ENGINE_LEASE_MS,
    llmTimeoutMs: e.LLM_TIMEOUT_MS,
    storageToleranceMs: e.ENGINE_STORAGE_TOLERANCE_MS,
    maxInterruptions: e.ENGINE_MAX_INTERRUPTIONS,
    reconcileIntervalMs: e.ENGINE_RECONCILE_INTERVAL_MS,
    scoreIntervalMs: e.ENGINE_SCORE_INTERVAL_MS,
    mailIntervalMs: e.ENGINE_MAIL_INTERVAL_MS,
    staleAfterMs: e.ENGINE_STALE_AFTER_MS,
    schedulerIntervalMs: e.ENGINE_SCHEDULER_INTERVAL_MS,
  };
}

export function billingOf(e: Env): BillingConfig {
  return {
    secretKey: e.STRIPE_SECRET_KEY ?? null,
    webhookSecret: e.STRIPE_WEBHOOK_SECRET ?? null,
    api: e.STRIPE_API_URL ? stripeAddress(e.STRIPE_API_URL) : null,
    prices: {
      byok: e.STRIPE_PRICE_BYOK ?? null,
      byok_pro: e.STRIPE_PRICE_BYOK_PRO ?? null,
      credits_100: e.STRIPE_PRICE_CREDITS_100 ?? null,
      credits_500: e.STRIPE_PRICE_CREDITS_500 ?? null,
      credits_2000: e.STRIPE_PRICE_CREDITS_2000 ?? null,
    },
  };
}

export function webhooksOf(e: Env): Config['webhooks'] {
  return {
    allowHttp: e.WEBHOOK_ALLOW_HTTP,
    allowPrivate: e.WEBHOOK_ALLOW_PRIVATE,
    intervalMs: e.ENGINE_WEBHOOK_INTERVAL_MS,
    senders: e.WEBHOOK_SENDERS,
    retentionDays: e.WEBHOOK_RETENTION_DAYS,
  };
}

function stripeAddress(url: string): BillingConfig['api'] {
  const parsed = new URL(url);
  const protocol = parsed.protocol === 'http:' ? 'http' : 'https';
  const port = parsed.port ? Number(parsed.port) : protocol === 'http' ? 80 : 443;
  return { protocol, host: parsed.hostname, port };
}

function trustProxyOf(value: string | undefined): boolean | number | string[] {
  if (value === undefined) return false;
  // A number first: "1" is one hop here, not "yes".
  if (/^\d+$/.test(value)) return Number(value);
  const flag = readFlag(value);
  if (flag !== null) return flag;
  return value.split(',').map((entry) => entry.trim());
}

function isOrigin(value: string): boolean {
  try {
    return new URL(value).origin === value;
  } catch {
    return false;
  }
}

function stripSlash(url: string): string {
  return url.endsWith('/') ? url.slice(0, -1) : url;
}
