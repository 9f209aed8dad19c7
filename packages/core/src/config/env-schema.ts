import { z } from 'zod';
import { FLAG_SPELLINGS, readFlag } from './flag.ts';

const Url = z.url({ protocol: /^https?$/ });

/** A yes/no setting, in any of the usual spellings (config/flag.ts). */
const Flag = z.string().transform((value, ctx) => {
  const flag = readFlag(value);
  if (flag === null) ctx.addIssue({ code: 'custom', message: `expected ${FLAG_SPELLINGS}` });
  return flag ?? false;
});

/** Every variable the service reads, with its default: the one description of the environment. */
export const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  /**
   * What serves HTTP, and so the SSE streams: `uws` (uWebSockets.js; on a C library too old for its binary
   * the API prepares a newer one and restarts through it: apps/api/src/startup/uws-runtime.ts), `node`
   * (Node's http), `auto` (uWebSockets.js where its binary loads, else Node's http, saying why).
   */
  STREAMS: z.enum(['uws', 'node', 'auto']).default('auto'),
  /**
   * Plain reads (GET /v1/me, /v1/health …, no cookie, Origin or proxy headers) answered without Fastify's
   * pipeline, the same answer at a fraction of the CPU (apps/api/src/http/direct-reads.ts). Off sends
   * every request through Fastify: a way back should an answer ever differ.
   */
  DIRECT_READS: Flag.default(true),
  /** Public address of this API, used in links such as streamUrl. */
  PUBLIC_BASE_URL: Url.optional(),
  /** Address of the human-facing web application (share links, upgrade links). */
  APP_URL: Url.optional(),
  /** PostgreSQL connection string; absent means embedded PGlite in DATA_DIR. */
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
    .optional(),
  /** PostgreSQL schema to use (tests isolate themselves with one schema each). */
  DATABASE_SCHEMA: z
    .string()
    .regex(/^[a-z_][a-z0-9_]{0,62}$/, 'lowercase identifier')
    .default('public'),
  /**
   * A streaming replica (hot standby) of DATABASE_URL's PostgreSQL: the read-heavy routes (search, similar
   * debates, analytics, key usage, debate lists) read there, save a caller's read right after their own
   * write, which the primary answers until the replica has replayed it (core/src/replica/). Needs
   * DATABASE_URL: an embedded database has no replicas.
   */
  DATABASE_REPLICA_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
    .optional(),
  /** Reads leave a replica further behind the primary than this (its replay, measured in WAL position). */
  DATABASE_REPLICA_MAX_LAG_MS: z.coerce.number().int().min(0).max(3_600_000).default(5_000),
  /** Embedded mode's folder: the lock, the admin channel and (in pglite/) the database. */
  DATA_DIR: z.string().min(1).default('./.data'),
  /** Where prepared embedded databases are looked for (default: node_modules/.cache/verdict-pglite). */
  PGLITE_TEMPLATES: z.string().min(1).optional(),
  /** NATS server(s); absent means the in-process bus. */
  NATS_URL: z.string().min(1).optional(),
  /**
   * Copies JetStream keeps of each stream (jobs, events) and of the job consumer, on as many NATS servers:
   * 3 survives one server lost, 5 two. Needs a NATS cluster of at least that many JetStream servers (checked
   * at start); streams made with another count are moved to this one. 1..5, as NATS allows. Unset: streams are
   * made with one copy and existing ones keep theirs (an operator's count set by hand is not undone).
   */
  NATS_STREAM_REPLICAS: z.coerce.number().int().min(1).max(5).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /**
   * Browser origins allowed to call the API with CORS (comma-separated, e.g. https://app.example.com);
   * default: the origin of APP_URL. Cookie-authenticated writes from any other origin are refused (CSRF).
   */
  CORS_ORIGINS: z.string().optional(),
  /**
   * Which proxies in front of the API to believe about the client's address (X-Forwarded-For), which the
   * per-IP limits count by: unset trusts none; a number trusts that many hops; otherwise a comma-separated
   * list of addresses or CIDRs (e.g. 10.0.0.0/8). "true" (or yes, on) trusts any sender: only behind a
   * proxy that overwrites the header; "false" (no, off) trusts none. A number is always a hop count.
   */
  TRUST_PROXY: z
    .string()
    .trim()
    .regex(
      /^(true|false|yes|no|on|off|\d{1,2}|[0-9a-fA-F:./]+(\s*,\s*[0-9a-fA-F:./]+)*)$/i,
      'true, false, a hop count, or addresses/CIDRs',
    )
    .optional(),
  /** A request whose headers and body have not fully arrived by then is answered 408 and closed. */
  REQUEST_TIMEOUT_MS: z.coerce.number().int().min(1000).default(30_000),
  /**
   * Serves GET /metrics (Prometheus's text format) to a scraper presenting `Authorization: Bearer <token>`;
   * unset, there is no /metrics at all.
   */
  METRICS_TOKEN: z.string().min(16, 'at least 16 characters').optional(),
  /** An engine process serves GET /metrics on this port (with METRICS_TOKEN as above when set); unset, none. */
  METRICS_PORT: z.coerce.number().int().min(1).max(65_535).optional(),
  /**
   * After SIGTERM, how long a process answers GET /ready with 503 (draining) before it stops taking
   * connections: the time a load balancer needs to see it and route elsewhere. 0 (default): at once.
   */
  SHUTDOWN_DELAY_MS: z.coerce.number().int().min(0).max(120_000).default(0),
  /**
   * After SIGTERM, how long requests in flight (and an engine node's jobs handing their debates back) may
   * take before the process closes what is left and exits.
   */
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).max(120_000).default(10_000),
  /**
   * A database transaction open longer than this is rolled back and logged, so that one stuck piece of
   * work cannot hold locks (or, embedded, the only connection) for everyone else.
   */
  DB_TRANSACTION_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),
  /** Largest accepted request body in bytes. */
  BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).default(1_048_576),
  SESSION_TTL_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  /** Registrations one client IP may attempt per hour (each hashes a password). */
  REGISTER_LIMIT_PER_HOUR: z.coerce.number().int().min(1).default(20),
  /** Debate streams one account may open (or resume) per minute; counted apart from its requests. */
  STREAM_OPENS_PER_MINUTE: z.coerce.number().int().min(1).default(60),
  /**
   * Requests one account's dashboard sessions (the web console) may make per minute, a budget apart from
   * its keys': a page reads a few routes at once, which the free plan's 10 keyed requests would not allow.
   */
  SESSION_REQUESTS_PER_MINUTE: z.coerce.number().int().min(1).default(120),
  /** Prepended to NATS subjects and stream names, to share one NATS between deployments or tests. */
  NATS_PREFIX: z
    .string()
    .regex(/^([a-z0-9_-]+\.)?$/i, 'letters, digits, _ or - followed by a dot')
    .default(''),
  /** Debates one engine node runs at once. */
  ENGINE_SLOTS: z.coerce.number().int().min(1).max(10_000).default(50),
  /**
   * How long a job may go without a heartbeat (one every third of it) before the queue hands it to another
   * node: the bulk of the time to recover from a node that died, whose debates are taken over at once (its
   * database session, and with it its presence, ended with it).
   */
  JOB_ACK_WAIT_MS: z.coerce.number().int().min(1000).default(1500),
  /**
   * How long a node's lease on a debate lasts unrenewed (renewed every third of it): how long a node that is
   * alive but stalled, or cut off from the database, keeps its debates before another node may take them.
   */
  ENGINE_LEASE_MS: z.coerce.number().int().min(1000).default(6000),
  /** How long a node keeps retrying a storage or bus write through an outage before handing a debate back. */
  ENGINE_STORAGE_TOLERANCE_MS: z.coerce.number().int().min(0).default(30_000),
  /** Interruptions (storage answering) after which a debate fails INTERNAL_ERROR instead of being retried. */
  ENGINE_MAX_INTERRUPTIONS: z.coerce.number().int().min(1).default(5),
  /** How often each node looks for debates nobody is running (lost jobs, dead nodes). */
  ENGINE_RECONCILE_INTERVAL_MS: z.coerce.number().int().min(100).default(15_000),
  ENGINE_SCORE_INTERVAL_MS: z.coerce.number().int().min(50).default(500),
  /** How long a debate may sit unclaimed, or with an expired lease, before the reconciler re-queues it. */
  ENGINE_STALE_AFTER_MS: z.coerce.number().int().min(100).default(30_000),
  /** Per-attempt limit of one LLM call. */
  LLM_TIMEOUT_MS: z.coerce.number().int().min(100).default(60_000),
  /** The simulated provider's delay to first token and streaming rate (used when no key is configured). */
  SIMULATED_FIRST_TOKEN_MS: z.coerce.number().int().min(0).default(400),
  SIMULATED_TOKENS_PER_SECOND: z.coerce.number().int().min(0).default(0),
  /** Debates a free-plan account may run per UTC month on the free tier once its credits are spent. */
  FREE_MONTHLY_DEBATES: z.coerce.number().int().min(0).default(5),
  /** Debates one account may have pending, running or paused at once. */
  CONCURRENT_DEBATES: z.coerce.number().int().min(1).default(3),
  /** Reads of GET /api/public/debates/:token one client IP may make per sliding minute (the spec's 30). */
  PUBLIC_READS_PER_MINUTE: z.coerce.number().int().min(1).default(30),
  /**
   * Where comment and fork notifications are emailed: smtp://user:pass@host:port or smtps://…; absent
   * means no email (said once at start).
   */
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
    .optional(),
  /** The From of notification emails. */
  EMAIL_FROM: z.string().min(3).default('Verdict <notifications@localhost>'),
  /**
   * Signs unsubscribe links (HMAC-SHA256); at least 32 characters. Required with SMTP_URL. Changing it
   * invalidates every link already sent.
   */
  EMAIL_LINK_SECRET: z.string().min(32).optional(),
  /** How often each engine node's mailer looks for notification emails to send. */
  ENGINE_MAIL_INTERVAL_MS: z.coerce.number().int().min(50).default(1000),
  /** How long a completed debate answers an identical create request (0 turns the cache off). */
  DEBATE_CACHE_HOURS: z.coerce.number().min(0).default(24),
  /**
   * How often each engine node's scheduler looks for due scheduled debates. At most 10 s: with the ±25 %
   * jitter of a worker's period, a due run then fires within 15 s of its nextRunAt.
   */
  ENGINE_SCHEDULER_INTERVAL_MS: z.coerce.number().int().min(50).max(10_000).default(5000),
  /** The payment processor's secret key (sk_…); absent: the paying billing routes answer 503. */
  STRIPE_SECRET_KEY: z.string().min(1).optional(),
  /** Signs the processor's webhook events (whsec_…); absent: POST /api/billing/webhook answers 503. */
  STRIPE_WEBHOOK_SECRET: z.string().min(1).optional(),
  /** Price ids (price_…) of what checkout sells; a route whose price is absent answers 503. */
  STRIPE_PRICE_BYOK: z.string().min(1).optional(),
  STRIPE_PRICE_BYOK_PRO: z.string().min(1).optional(),
  STRIPE_PRICE_CREDITS_100: z.string().min(1).optional(),
  STRIPE_PRICE_CREDITS_500: z.string().min(1).optional(),
  STRIPE_PRICE_CREDITS_2000: z.string().min(1).optional(),
  /** Another address for the processor's API (a local fake in tests), e.g. http://127.0.0.1:12111. */
  STRIPE_API_URL: Url.optional(),
  /** Local development only: webhooks may use http:// URLs. */
  WEBHOOK_ALLOW_HTTP: Flag.default(false),
  /** Local development only: webhooks may target loopback and private addresses (never metadata or multicast). */
  WEBHOOK_ALLOW_PRIVATE: Flag.default(false),
  /** How often each engine node fans new events out to webhooks, and how often an idle sender looks for work. */
  ENGINE_WEBHOOK_INTERVAL_MS: z.coerce.number().int().min(50).default(500),
  /** Webhook deliveries one engine node sends at once (a slow receiver holds one of them, up to 10 s). */
  WEBHOOK_SENDERS: z.coerce.number().int().min(1).max(256).default(16),
  /**
   * Days the rows of `debate_events` are kept after the month of their debates' creation ends; then the
   * month's partition is dropped once each of its debates has ended and been compacted into a transcript,
   * which readers read instead. Unset: rows are kept (partitions are still made ahead).
   */
  DEBATE_EVENTS_RETENTION_DAYS: z.coerce.number().int().min(1).optional(),
  /** Days finished webhook deliveries (with their attempts) and handled outbox rows are kept. */
  WEBHOOK_RETENTION_DAYS: z.coerce.number().int().min(1).default(30),
  /**
   * Audit retention per plan where it differs from the plan table's (`pro=120,enterprise=730`); at least
   * 30 days each, the least the database lets retention remove (migration 0038).
   */
  AUDIT_RETENTION_DAYS: z
    .string()
    .regex(
      /^\s*[a-z_]+=\d+\s*(,\s*[a-z_]+=\d+\s*)*$/,
      'plan=days pairs, comma separated: pro=120,enterprise=730',
    )
    .optional(),
  /**
   * Encrypts workspaces' OIDC client secrets at rest (AES-256-GCM under a key derived from it); at least 32
   * characters. Without it, an OIDC connection with a client secret cannot be saved (503); SAML needs none.
   * Changing it makes the stored secrets unreadable: their owners save them again.
   */
  SSO_SECRET_KEY: z.string().min(32).optional(),
  /** Local development only: OIDC issuers may be http:// addresses. */
  SSO_ALLOW_HTTP: Flag.default(false),
  /** Local development only: OIDC issuers may be loopback and private addresses (never cloud metadata). */
  SSO_ALLOW_PRIVATE: Flag.default(false),
});

/** The environment as validated. */
export type Env = z.infer<typeof EnvSchema>;
