import { resolve } from 'node:path';
import { z } from 'zod';

const Url = z.url({ protocol: /^https?$/ });

const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
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
  DATA_DIR: z.string().min(1).default('./.data'),
  /** NATS server(s); absent means the in-process bus. */
  NATS_URL: z.string().min(1).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Largest accepted request body in bytes. */
  BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).default(1_048_576),
  SESSION_TTL_DAYS: z.coerce.number().int().min(1).max(365).default(30),
});

export type Config = {
  port: number;
  host: string;
  publicBaseUrl: string;
  appUrl: string;
  secureCookies: boolean;
  database: { kind: 'postgres'; url: string; schema: string } | { kind: 'pglite'; dataDir: string };
  nats: { kind: 'nats'; servers: string[] } | { kind: 'memory' };
  logLevel: z.infer<typeof EnvSchema>['LOG_LEVEL'];
  bodyLimitBytes: number;
  sessionTtlMs: number;
};

/** A readable list of what is wrong with the environment, one variable a line. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * Validates the environment once, at start. This is the only place that reads `process.env`; everything
 * else receives a `Config`.
 */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid environment:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const publicBaseUrl = stripSlash(e.PUBLIC_BASE_URL ?? `http://localhost:${e.PORT}`);
  return {
    port: e.PORT,
    host: e.HOST,
    publicBaseUrl,
    appUrl: stripSlash(e.APP_URL ?? publicBaseUrl),
    secureCookies: publicBaseUrl.startsWith('https://'),
    database: e.DATABASE_URL
      ? { kind: 'postgres', url: e.DATABASE_URL, schema: e.DATABASE_SCHEMA }
      : { kind: 'pglite', dataDir: resolve(e.DATA_DIR, 'pglite') },
    nats: e.NATS_URL
      ? { kind: 'nats', servers: e.NATS_URL.split(',').map((s) => s.trim()) }
      : { kind: 'memory' },
    logLevel: e.LOG_LEVEL,
    bodyLimitBytes: e.BODY_LIMIT_BYTES,
    sessionTtlMs: e.SESSION_TTL_DAYS * 86_400_000,
  };
}

function stripSlash(url: string): string {
  return url.endsWith('/') ? url.slice(0, -1) : url;
}
