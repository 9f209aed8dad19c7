/**
 * Where does the time of one route go? Runs the API in a child process (optionally under --cpu-prof),
 * loads one route, then reports throughput, the CPU seconds spent by each party (load generator, API
 * process, PostgreSQL backends), database transactions per request and, when profiled, the API
 * process's self time by package and by function.
 *
 *   npm exec -- node bench/profile.ts [--route /v1/me] [--mode postgres|embedded]
 *       [--counters memory|database] [--plain] [--duration 10] [--warmup 2] [--connections 50] [--otlp]
 *       [--streams node|uws]
 *
 * --otlp turns the API's tracing on, exporting to a loopback sink here that answers every export at once.
 * --plain skips the V8 profiler (its sampling costs a little throughput); --keep keeps the .cpuprofile. Routes: /v1/me, /v1/health,
 * /bench/direct-me, /bench/raw-me, /bench/one-query-me (experiments on plain Fastify; see
 * servers/api-server.ts), and /bare (the bare Fastify server instead of the API).
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { expectOk, startApiServer, startBareServer } from './lib/api-servers.ts';
import { summarizeProfile } from './lib/cpuprofile.ts';
import { measure } from './lib/load.ts';
import { measureWithCpu } from './lib/measure-cpu.ts';
import { startOtlpSink } from './lib/otlp-sink.ts';
import { BENCH_DATABASE_URL } from './lib/services.ts';

const { values: args } = parseArgs({
  options: {
    route: { type: 'string', default: '/v1/me' },
    mode: { type: 'string', default: 'postgres' },
    counters: { type: 'string' },
    plain: { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
    duration: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '2' },
    connections: { type: 'string', default: '50' },
    otlp: { type: 'boolean', default: false },
    streams: { type: 'string', default: 'node' },
  },
});
const mode = args.mode === 'embedded' ? 'embedded' : 'postgres';
const counters = args.counters === 'memory' || args.counters === 'database' ? args.counters : undefined;
const databaseUrl = BENCH_DATABASE_URL;

/** Committed transactions of the whole cluster database, or null without psql. */
function xactCommits(): number | null {
  if (mode !== 'postgres') return null;
  try {
    const out = execFileSync('psql', [
      databaseUrl,
      '-Atc',
      'select xact_commit from pg_stat_database where datname = current_database()',
    ]);
    return Number(out.toString().trim());
  } catch {
    return null;
  }
}

const sink = args.otlp ? await startOtlpSink() : null;

const profDir = args.plain ? undefined : await mkdtemp(join(tmpdir(), 'verdict-prof-'));
const execArgv = profDir ? ['--cpu-prof', `--cpu-prof-dir=${profDir}`] : [];
const api =
  args.route === '/bare'
    ? await startBareServer({ execArgv })
    : await startApiServer({
        mode,
        databaseUrl,
        directRoute: args.route.startsWith('/bench/'),
        ...(counters ? { counters } : {}),
        ...(sink ? { env: { OTEL_EXPORTER_OTLP_ENDPOINT: sink.url } } : {}),
        execArgv,
        streams: args.streams === 'uws' ? 'uws' : 'node',
      });
const url = `${api.baseUrl}${args.route}`;
const headers = args.route === '/v1/health' ? {} : api.authHeaders;
const connections = Number(args.connections);
const durationS = Number(args.duration);
/** The measured run on CLOCK_MONOTONIC, which V8 profile timestamps also use. */
const windowUs = { startUs: 0, endUs: 0 };
try {
  await expectOk(url, headers);
  // Warm up first so the transaction count covers the measured run only.
  await measure({ url, headers, connections, durationS: Number(args.warmup), warmupS: 0 });
  await sleep(1100); // let the statistics collector flush the warm-up
  const xactBefore = xactCommits();
  const {
    load: r,
    cpu: split,
    windowUs: window,
  } = await measureWithCpu({ url, headers, connections, durationS, warmupS: 0 }, api.pid);
  Object.assign(windowUs, window);
  const wallS = split.wallS;
  const cpu = {
    'load generator (autocannon)': split.loadGenerator,
    'server process': split.server,
    'PostgreSQL (all backends)': split.postgres,
  };
  await sleep(1100);
  const xactAfter = xactCommits();

  console.log(
    `\n${args.route} — ${mode}${counters ? `, ${counters} counters` : ''}${profDir ? ', under --cpu-prof' : ''}`,
  );
  console.log(
    `  ${Math.round(r.rps)} req/s, p50 ${r.p50Ms} ms, p99 ${r.p99Ms} ms, ${r.requests} requests, ` +
      `${r.non2xx} non-2xx, ${r.errors} errors`,
  );
  console.log(`  CPU over ${wallS.toFixed(1)} s wall (${cpus().length} cores = ${cpus().length * 100}%):`);
  for (const [who, s] of Object.entries(cpu)) {
    console.log(
      `    ${who.padEnd(28)} ${((s / wallS) * 100).toFixed(0).padStart(4)}%  ${((s / r.requests) * 1e6).toFixed(0).padStart(5)} µs/request`,
    );
  }
  if (xactBefore !== null && xactAfter !== null) {
    const perRequest = (xactAfter - xactBefore) / r.requests;
    console.log(
      `  database transactions per request: ${perRequest.toFixed(2)} (whole database; other clients count too)`,
    );
  }
} finally {
  await api.stop();
  await sink?.close();
}

if (profDir) {
  const [file] = (await readdir(profDir)).filter((f) => f.endsWith('.cpuprofile'));
  if (!file) throw new Error('no .cpuprofile written');
  const summary = await summarizeProfile(join(profDir, file), {
    window: windowUs,
    callersOf: ['writeBuffer', 'writeUtf8String', 'writev', 'DOMException', '_Request'],
    probes: {
      'pg driver (pg, pg-protocol, pg-pool)': (f) => /node_modules\/pg(-protocol|-pool)?\//.test(f.url),
      MikroORM: (f) => f.url.includes('/@mikro-orm/'),
      'em.findOne (profile read)': (f) => f.functionName === 'findOne' && f.url.includes('@mikro-orm'),
      'trpc-to-openapi': (f) => f.url.includes('/trpc-to-openapi/'),
      '@trpc/server': (f) => f.url.includes('/@trpc/server/'),
      zod: (f) => f.url.includes('/zod/'),
      fastify: (f) => f.url.includes('/fastify/') || f.url.includes('/find-my-way/'),
      OpenTelemetry: (f) => f.url.includes('/@opentelemetry/'),
      'pino (logging)': (f) => f.url.includes('/pino'),
      GC: (f) => f.functionName === '(garbage collector)',
    },
  });
  const pct = (s: number) => `${(s * 100).toFixed(1).padStart(5)}%`;
  const busy = summary.categories.filter((c) => c.name !== 'idle').reduce((a, c) => a + c.ms, 0);
  console.log(
    `\nAPI process profile of the measured run: ${(summary.totalMs / 1000).toFixed(1)} s sampled, ${(busy / 1000).toFixed(1)} s not idle`,
  );
  console.log('  self time by package:');
  for (const c of summary.categories.slice(0, 18)) console.log(`    ${pct(c.share)}  ${c.name}`);
  console.log('  inclusive time:');
  for (const c of summary.inclusive) console.log(`    ${pct(c.share)}  ${c.name}`);
  console.log('  native hot spots by JavaScript caller (package function ← caller …):');
  for (const c of summary.callers.slice(0, 12)) console.log(`    ${pct(c.share)}  ${c.native}  ${c.caller}`);
  console.log('  top functions by self time:');
  for (const f of summary.functions) console.log(`    ${pct(f.share)}  ${f.name}  ${f.where}`);
  if (args.keep) console.log(`\n  profile kept: ${join(profDir, file)} (open in Chrome DevTools)`);
  else await rm(profDir, { recursive: true, force: true });
}
