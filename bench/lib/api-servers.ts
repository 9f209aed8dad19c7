import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nodeCommandForUws } from '@verdict/api';
import { BENCH_DATABASE_URL } from './services.ts';
import { spawnServer } from './spawn-server.ts';

const SERVERS = join(import.meta.dirname, '..', 'servers');

export type RunningApi = {
  baseUrl: string;
  /** Headers that authenticate as the bench user's API key. */
  authHeaders: Record<string, string>;
  pid: number;
  /** Stops the server and removes what it created (its schema, or its temporary data folder). */
  stop: () => Promise<void>;
};

export type ApiServerOptions = {
  /** `postgres`: distributed mode on DATABASE_URL in a fresh schema. `embedded`: PGlite in a temp folder. */
  mode: 'postgres' | 'embedded';
  databaseUrl?: string;
  /** Overrides the counter store the mode would choose (production: database for postgres, else memory). */
  counters?: 'memory' | 'database';
  /** Adds GET /bench/direct-me (see servers/api-server.ts). */
  directRoute?: boolean;
  /** false: no per-key usage counting (production counts; for pricing it). */
  countUsage?: boolean;
  /** More environment for the server (its configuration variables). */
  env?: Record<string, string>;
  execArgv?: string[];
  /** The HTTP server (STREAMS): `uws` starts node so that it loads uWebSockets.js (nodeCommandForUws). */
  streams?: 'uws' | 'node';
};

export async function startApiServer(options: ApiServerOptions): Promise<RunningApi> {
  const env: Record<string, string> = { STREAMS: options.streams ?? 'node', ...options.env };
  let dataDir: string | undefined;
  if (options.mode === 'postgres') {
    env.DATABASE_URL = options.databaseUrl ?? BENCH_DATABASE_URL;
    env.DATABASE_SCHEMA = `bench_${randomBytes(5).toString('hex')}`;
    env.BENCH_DROP_SCHEMA = '1';
  } else {
    dataDir = await mkdtemp(join(tmpdir(), 'verdict-bench-'));
    env.DATA_DIR = dataDir;
  }
  if (options.counters) env.BENCH_COUNTERS = options.counters;
  if (options.directRoute) env.BENCH_DIRECT_ROUTE = '1';
  if (options.countUsage === false) env.BENCH_USAGE_COUNTING = 'off';
  const cleanupDir = async () => {
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  };
  try {
    const server = await spawnServer<{ port: number; key: string }>(join(SERVERS, 'api-server.ts'), {
      env,
      // Tracing too: a server traces only when a suite says so (options.env), never by inheritance.
      unset: [
        'DATABASE_URL',
        'DATABASE_SCHEMA',
        'DATA_DIR',
        'NATS_URL',
        'PORT',
        'HOST',
        'OTEL_EXPORTER_OTLP_ENDPOINT',
        'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
      ],
      execArgv: options.execArgv ?? [],
      ...(options.streams === 'uws' ? { node: nodeCommandForUws() } : {}),
    });
    return {
      baseUrl: `http://127.0.0.1:${server.info.port}`,
      authHeaders: { authorization: `Bearer ${server.info.key}` },
      pid: server.child.pid ?? 0,
      stop: async () => {
        try {
          await server.stop();
        } catch (err) {
          // The figures are already taken: report, clean up from here, and carry on.
          process.stderr.write(`bench: api server did not stop cleanly: ${String(err)}\n`);
          if (env.DATABASE_SCHEMA) dropSchemaWithPsql(env.DATABASE_URL!, env.DATABASE_SCHEMA);
        } finally {
          await cleanupDir();
        }
      },
    };
  } catch (err) {
    await cleanupDir();
    // The server drops its schema when its start fails after the core opened; this covers an earlier
    // failure (e.g. during migrations). Best effort: psql may be missing.
    if (env.DATABASE_SCHEMA) dropSchemaWithPsql(env.DATABASE_URL!, env.DATABASE_SCHEMA);
    throw err;
  }
}

function dropSchemaWithPsql(url: string, schema: string) {
  try {
    execFileSync('psql', [url, '-qc', `drop schema if exists "${schema}" cascade`], { stdio: 'ignore' });
  } catch {
    // nothing more to do
  }
}

/** Plain Fastify serving GET /bare (servers/bare-server.ts); `authHeaders` is empty. */
export async function startBareServer(options: { execArgv?: string[] } = {}): Promise<RunningApi> {
  const server = await spawnServer<{ port: number }>(join(SERVERS, 'bare-server.ts'), {
    execArgv: options.execArgv ?? [],
  });
  return {
    baseUrl: `http://127.0.0.1:${server.info.port}`,
    authHeaders: {},
    pid: server.child.pid ?? 0,
    stop: server.stop,
  };
}

/**
 * One request before loading a route: a benchmark of 401s or 429s would measure the wrong thing.
 * Returns the response headers so callers can check, e.g., that the rate limiter ran.
 */
export async function expectOk(url: string, headers: Record<string, string> = {}): Promise<Headers> {
  const res = await fetch(url, { headers });
  const body = await res.text();
  if (res.status !== 200) throw new Error(`GET ${url} answered ${res.status}: ${body.slice(0, 300)}`);
  return res.headers;
}
