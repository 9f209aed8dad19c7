/**
 * The API as production builds it (loadConfig + createCore + buildServer), for load tests. Configured
 * by the environment like the real process (DATABASE_URL + DATABASE_SCHEMA for distributed mode, DATA_DIR
 * for embedded PGlite), plus bench-only knobs:
 *   BENCH_COUNTERS=memory|database  override the rate-limit counter store (default: as production)
 *   BENCH_DROP_SCHEMA=1             drop DATABASE_SCHEMA on shutdown
 *   BENCH_USAGE_COUNTING=off        serve without counting keyed requests in their keys' usage (to price it)
 *   BENCH_RATE_LIMIT=<n>            the bench account's requests per minute (default 100000000: checked, never spent)
 *   BENCH_AUDIT_ENTRIES=<n>         put the bench account on Pro and its audit trail at n entries more (suites/audit.ts)
 *   OTEL_EXPORTER_OTLP_ENDPOINT …   traces, as the real process reads them (bench/suites/tracing.ts sets them)
 *   BENCH_DIRECT_ROUTE=1            also serve three experiment routes on plain Fastify (no tRPC):
 *     GET /bench/direct-me     the same three core calls as /v1/me (key lookup, counter upsert, profile)
 *     GET /bench/raw-me        the same three round trips, the profile read as raw SQL instead of em.findOne
 *     GET /bench/one-query-me  the same work in one SQL statement (one round trip), to price round trips
 * Once listening it prints {"port","key","userId"} as one JSON line on stdout. A failed start still drops
 * the schema.
 */
import { buildServer } from '@verdict/api';
import { createCore, loadConfig, nudgeMemoryReducer, startTracing } from '@verdict/core';
import type { FastifyInstance } from 'fastify';
import { seedAuditEntries } from '../lib/audit-entries.ts';
import { dropBenchSchema } from '../lib/drop-schema.ts';
import { listenAndReport } from '../lib/spawn-server.ts';
import { registerExperimentRoutes } from './experiment-routes.ts';

const counters = process.env.BENCH_COUNTERS;
if (counters !== undefined && counters !== 'memory' && counters !== 'database') {
  throw new Error(`BENCH_COUNTERS must be memory or database, not ${counters}`);
}

// First, as in apps/api/src/main.ts: off unless an OTLP endpoint is in the environment.
const tracing = startTracing('verdict-api');
const config = loadConfig({ ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent' });
// As the API's entry does (apps/api/src/main.ts): a burst's heap is given back once the process is quiet.
nudgeMemoryReducer();
const core = await createCore(config, counters ? { counters } : {});

/**
 * Drops the bench schema (when asked) and closes the core; runs on stop and on a failed start. Requests
 * cut off by the close may still be running their queries, and DROP SCHEMA can deadlock with one of
 * them: PostgreSQL then aborts one side, so the drop is retried.
 */
async function release() {
  if (process.env.BENCH_DROP_SCHEMA === '1' && config.database.kind === 'postgres') {
    await dropBenchSchema(core.db, config.database.schema);
  }
  await core.close();
  await tracing.shutdown();
}

let app: FastifyInstance;
let ready: { key: string; userId: string };
try {
  const user = await core.accounts.createUser({ email: `bench-${process.pid}@example.com`, name: 'Bench' });
  // The account's own limit (an operator setting); its key inherits it. High enough that no run of passes
  // on one server spends it within a minute, whatever the machine's speed: the limit is checked, never hit.
  await core.accounts.setRateLimit(user.id, Number(process.env.BENCH_RATE_LIMIT ?? 100_000_000));
  const key = await core.apiKeys.create(user.id, 'bench', null);
  const auditEntries = Number(process.env.BENCH_AUDIT_ENTRIES ?? 0);
  if (auditEntries > 0) {
    await core.accounts.setPlan(user.id, 'pro');
    await seedAuditEntries(core.db, user.id, auditEntries);
  }
  app = await buildServer({ core, countUsage: process.env.BENCH_USAGE_COUNTING !== 'off' });
  if (process.env.BENCH_DIRECT_ROUTE === '1') registerExperimentRoutes(app, core);
  ready = { key: key.key, userId: user.id };
} catch (err) {
  await release();
  throw err;
}
await listenAndReport(app, release, (port) => ({ port, ...ready }));
