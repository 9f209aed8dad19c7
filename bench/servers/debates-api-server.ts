/**
 * The API in distributed mode (PostgreSQL + NATS JetStream) for bench/suites/debates.ts, built like
 * production (loadConfig + createCore + buildServer). The environment carries DATABASE_URL,
 * DATABASE_SCHEMA (fresh), NATS_URL, NATS_PREFIX (fresh) and CONCURRENT_DEBATES; bench-only knobs:
 *   BENCH_USERS=<n>  users to create (default 1), each pro with 10,000,000 credits and one key
 *                    (the account set to 100,000 requests per minute by the operator setting)
 * Once listening it prints {"port","keys","userIds"} as one JSON line on stdout. Over IPC it answers
 * {type:'stats', gc?} with {type:'stats', memory, gc, cpuSeconds, lag}: process.memoryUsage() after gc()
 * (start it with --expose-gc; `gc: false` skips it) and the event-loop delay since the previous request;
 * {type:'heap-snapshot', path} with the same after writing a heap snapshot there. On stop it closes the server
 * (open SSE streams end cleanly), drops the schema and deletes the prefix's JetStream streams; a failed
 * start does the same.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { getHeapSpaceStatistics, writeHeapSnapshot } from 'node:v8';
import { buildServer } from '@verdict/api';
import { createCore, loadConfig, type NatsBus, nudgeMemoryReducer } from '@verdict/core';
import type { FastifyInstance } from 'fastify';
import type { ApiStats } from '../lib/debates-servers.ts';
import { dropBenchSchema } from '../lib/drop-schema.ts';
import { listenAndReport } from '../lib/spawn-server.ts';

const config = loadConfig({ ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent' });
if (config.database.kind !== 'postgres' || config.nats.kind !== 'nats') {
  throw new Error('debates-api-server needs DATABASE_URL and NATS_URL');
}
const schema = config.database.schema;
const users = Number(process.env.BENCH_USERS ?? '1');
if (!Number.isInteger(users) || users < 1) throw new Error('BENCH_USERS must be a positive integer');
// As the API's entry does (apps/api/src/main.ts): a burst's heap is given back once the process is quiet.
nudgeMemoryReducer();
const core = await createCore(config);

/** Drops the schema (retried: a request cut off by the close may hold a lock) and the streams. */
async function release() {
  await dropBenchSchema(core.db, schema);
  await (core.bus as NatsBus).deleteStreams().catch(() => {});
  await core.close();
}

const lag = monitorEventLoopDelay({ resolution: 10 });
lag.enable();
process.on('message', (message: { type?: string; gc?: boolean; path?: string }) => {
  if (message?.type === 'heap-snapshot' && message.path) {
    // After a collection, so the snapshot holds what is kept, not what is garbage (bench/heap-breakdown.ts).
    globalThis.gc?.();
    process.send?.({ type: 'heap-snapshot', path: writeHeapSnapshot(message.path) });
    return;
  }
  if (message?.type !== 'stats') return;
  const collect = message.gc !== false && typeof globalThis.gc === 'function';
  if (collect) globalThis.gc?.();
  const cpu = process.cpuUsage();
  const ms = (ns: number) => ns / 1e6;
  const stats: ApiStats = {
    type: 'stats',
    memory: process.memoryUsage(),
    spaces: getHeapSpaceStatistics().map((space) => ({
      name: space.space_name,
      physical: space.physical_space_size,
      used: space.space_used_size,
    })),
    gc: collect,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
    lag: { p50Ms: ms(lag.percentile(50)), p99Ms: ms(lag.percentile(99)), maxMs: ms(lag.max) },
  };
  lag.reset();
  process.send?.(stats);
});

let app: FastifyInstance;
let ready: { keys: string[]; userIds: string[] };
try {
  const keys: string[] = [];
  const userIds: string[] = [];
  for (let i = 0; i < users; i++) {
    const user = await core.accounts.createUser({
      email: `bench-${process.pid}-${i}@example.com`,
      name: 'Bench',
    });
    await core.accounts.setPlan(user.id, 'pro');
    await core.billing.grantCredits(user.id, 10_000_000, 'bench');
    // The account's own limit (an operator setting); its key inherits it.
    await core.accounts.setRateLimit(user.id, 100_000);
    const key = await core.apiKeys.create(user.id, 'bench', null);
    keys.push(key.key);
    userIds.push(user.id);
  }
  app = await buildServer({ core });
  ready = { keys, userIds };
} catch (err) {
  await release();
  throw err;
}
await listenAndReport(app, release, (port) => ({ port, ...ready }));
