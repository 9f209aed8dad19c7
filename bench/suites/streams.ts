import { setTimeout as sleep } from 'node:timers/promises';
import { startBareSse } from '../lib/bare-sse.ts';
import { newDeployment, startDebatesApi } from '../lib/debates-servers.ts';
import { openSseFleet, type SseFleet } from '../lib/debates-sse.ts';
import { createPending, tableAccesses, transactions } from '../lib/idle-streams.ts';
import { processRssBytes, residentBySource } from '../lib/proc-memory.ts';
import { type BenchResult, round } from '../lib/results.ts';
import { BENCH_NATS_URL } from '../lib/services.ts';
import type { Suite, SuiteContext } from '../lib/suite.ts';
import type { Transport } from '../lib/transports.ts';

/**
 * Idle SSE streams on one API process in distributed mode, once on each HTTP server the API runs on
 * (STREAMS=node, then STREAMS=uws): STREAMS clients on DEBATES pending debates (no engine runs, so nothing
 * happens but the keep-alives), opened from this process. Measured: the API's heap and RSS per open stream
 * (after gc(), over IPC) and the database transactions of the whole database while they idle for IDLE_S,
 * past two of the streams' 15 s keep-alives (each keep-alive also looks at the stored log, once per debate
 * for all its streams), less the database's rate without streams (the quieter of a window before they
 * open and one after they close). BENCH_IDLE_STREAMS sets the streams (default 10,000).
 */
const STREAMS = Number(process.env.BENCH_IDLE_STREAMS ?? 10_000);
const DEBATES = 10;
const IDLE_S = 35;
const BASELINE_S = 20;
/**
 * PostgreSQL's backends report their transaction counts up to 10 s late (PGSTAT_IDLE_INTERVAL): a window
 * opened right after the streams' opens would count some of those.
 */
const STATS_SETTLE_MS = 11_000;

/** Transactions a minute over BASELINE_S, once what came before has reached the statistics. */
async function quietRate(databaseUrl: string): Promise<number> {
  await sleep(STATS_SETTLE_MS);
  const before = transactions(databaseUrl);
  await sleep(BASELINE_S * 1000);
  return ((transactions(databaseUrl) - before - 1) * 60) / BASELINE_S; // less the second query
}

/** The figures' names: Node's http keeps the names they had before uWebSockets.js. */
const prefixOf = (transport: Transport) => (transport === 'node' ? 'streams.idle' : 'streams.idle_uws');
const serverOf = (transport: Transport) =>
  transport === 'node' ? "Node's http (STREAMS=node)" : 'uWebSockets.js (STREAMS=uws)';

async function idle(transport: Transport, { settings, log }: SuiteContext): Promise<BenchResult[]> {
  const d = newDeployment(settings.databaseUrl, BENCH_NATS_URL);
  log(`${transport}: API (schema ${d.schema}), ${STREAMS} streams on ${DEBATES} pending debates`);
  const api = await startDebatesApi(d, { streams: transport });
  const fleets: SseFleet[] = [];
  try {
    const auth = { authorization: `Bearer ${api.keys[0]}` };
    const paths = await Promise.all(Array.from({ length: DEBATES }, (_, i) => createPending(api, i)));
    // What the process and the database do anyway (background workers polling, the runner's own queries).
    const quietBefore = await quietRate(settings.databaseUrl);
    const before = await api.stats();
    const residentBefore = residentBySource(api.pid);
    const started = Date.now();
    for (const path of paths)
      fleets.push(await openSseFleet(`${api.baseUrl}${path}`, auth, Math.ceil(STREAMS / DEBATES)));
    const openMs = Date.now() - started;
    const connected = fleets.reduce((sum, fleet) => sum + fleet.connected, 0);
    const failures = fleets.flatMap((fleet) => fleet.failures);
    log(
      `${transport}: ${connected}/${STREAMS} open in ${openMs} ms${failures.length ? `; ${failures[0]}` : ''}`,
    );
    if (connected === 0) throw new Error(`no stream connected: ${failures[0]}`);
    await sleep(1000); // the last subscriptions settle
    const open = await api.stats();
    const residentOpen = residentBySource(api.pid);
    const heapPerStream = (open.memory.heapUsed - before.memory.heapUsed) / connected;
    const rssPerStream = (open.memory.rss - before.memory.rss) / connected;

    await sleep(STATS_SETTLE_MS); // the opens' own transactions reach the statistics first
    const xactBefore = transactions(settings.databaseUrl);
    const accessesBefore = tableAccesses(settings.databaseUrl, d.schema);
    await sleep(IDLE_S * 1000);
    const idleTransactions = transactions(settings.databaseUrl) - xactBefore - 1; // less the second query
    const idleAccesses = tableAccesses(settings.databaseUrl, d.schema) - accessesBefore;
    // Memory again at the end of the idle window: what the streams hold once the opens' burst is long past.
    const settled = await api.stats();
    const residentSettled = residentBySource(api.pid);
    const settledHeap = (settled.memory.heapUsed - before.memory.heapUsed) / connected;
    const settledRss = (settled.memory.rss - before.memory.rss) / connected;
    const perMinute = (idleTransactions * 60) / IDLE_S;
    const stillOpen = fleets.reduce((sum, fleet) => sum + fleet.stillOpen(), 0);
    // Again with the streams closed: work left by what ran before (a previous suite's dropped schemas, say)
    // can lift one window; the quieter one is the process's own.
    for (const fleet of fleets.splice(0)) fleet.close();
    const quietAfter = await quietRate(settings.databaseUrl);
    const baseline = Math.min(quietBefore, quietAfter);
    const byStreams = Math.max(0, perMinute - baseline);
    log(
      `${transport}: idle ${IDLE_S} s: ${idleTransactions} database transactions, ${idleAccesses} table accesses; heap ` +
        `${round(heapPerStream / 1024, 1)} KiB, RSS ${round(rssPerStream / 1024, 1)} KiB a stream (after the idle ` +
        `window: ${round(settledHeap / 1024, 1)} / ${round(settledRss / 1024, 1)} KiB; V8 committed ` +
        `${round((open.memory.heapTotal - before.memory.heapTotal) / connected / 1024, 1)} KiB a stream); ` +
        `${stillOpen} still open`,
    );
    const mib = (bytes: number) => (bytes / 1048576).toFixed(1);
    // Where V8's committed heap grew, space by space (committed / used KiB a stream): what RSS is made of.
    const spaces = open.spaces
      .map((space) => {
        const was = before.spaces.find((each) => each.name === space.name);
        const grew = (now: number, then = 0) => round((now - then) / connected / 1024, 1);
        return `${space.name} ${grew(space.physical, was?.physical)}/${grew(space.used, was?.used)}`;
      })
      .join(', ');
    log(`${transport}: V8 heap spaces, committed/used KiB a stream: ${spaces}`);
    // Where the RSS grew, from the kernel's side: V8's pages (its heap and the pages it pooled), the rest.
    const grownBy = (now: ReturnType<typeof residentBySource>) =>
      residentBefore && now
        ? (['v8PagesKib', 'otherAnonKib', 'filesKib'] as const)
            .map((source) => `${source} ${round((now[source] - residentBefore[source]) / connected, 1)}`)
            .join(', ')
        : 'not read';
    const resident = grownBy(residentOpen);
    log(
      `${transport}: resident memory grown, KiB a stream, by source (smaps): ${resident}; after the idle window: ${grownBy(residentSettled)}`,
    );
    const what =
      `${connected} SSE streams of one account on ${DEBATES} pending debates (no engine), one API process in ` +
      `distributed mode on ${serverOf(transport)}, opened from the runner's process in ${openMs} ms ` +
      `(${failures.length} failed; ${stillOpen} still open after ${IDLE_S + 12} s idle)`;
    const memory =
      `heapUsed ${mib(before.memory.heapUsed)} → ${mib(open.memory.heapUsed)} MiB, RSS ${mib(before.memory.rss)} ` +
      `→ ${mib(open.memory.rss)} MiB, V8's heap committed (heapTotal) ${mib(before.memory.heapTotal)} → ` +
      `${mib(open.memory.heapTotal)} MiB (committed/used KiB a stream by space: ${spaces}; resident growth by source: ${resident}), external ` +
      `${mib(before.memory.external)} → ${mib(open.memory.external)} MiB`;
    const prefix = prefixOf(transport);
    return [
      { name: `${prefix}.open`, value: connected, unit: 'streams', better: 'higher', detail: what },
      {
        name: `${prefix}.heap_per_stream_kb`,
        value: round(heapPerStream / 1024, 1),
        unit: 'KiB',
        better: 'lower',
        detail: `API heapUsed after gc() with the streams open minus before, ÷ streams (${memory}); ${what}`,
      },
      {
        name: `${prefix}.rss_per_stream_kb`,
        value: round(rssPerStream / 1024, 1),
        unit: 'KiB',
        better: 'lower',
        detail:
          `API RSS after gc() with the streams open minus before, ÷ streams: the heap, the buffers and the ` +
          `server's native memory per connection; the kernel's socket buffers are not in it (${memory}); ${what}`,
      },
      {
        name: `${prefix}.heap_per_stream_settled_kb`,
        value: round(settledHeap / 1024, 1),
        unit: 'KiB',
        better: 'lower',
        detail: `as heap_per_stream_kb, read again after the ${IDLE_S + STATS_SETTLE_MS / 1000} s of idling (${memory}); ${what}`,
      },
      {
        name: `${prefix}.rss_per_stream_settled_kb`,
        value: round(settledRss / 1024, 1),
        unit: 'KiB',
        better: 'lower',
        detail:
          `as rss_per_stream_kb, read again after the ${IDLE_S + STATS_SETTLE_MS / 1000} s of idling, once V8 and the ` +
          `allocator had time to give back what the opens' burst took (${memory}); ${what}`,
      },
      {
        name: `${prefix}.table_accesses_per_min`,
        value: round((idleAccesses * 60) / IDLE_S, 1),
        unit: '/min',
        better: 'lower',
        detail:
          `scans, index scans and rows inserted, updated or deleted in the API's schema (pg_stat_user_tables) over ` +
          `${IDLE_S} s of idling, per minute: what the service's statements did to its data while its streams ` +
          `idled (a process's notification connection probes with \`select 1\`, which touches no table); ${what}`,
      },
      {
        name: `${prefix}.db_transactions_per_min`,
        value: round(byStreams, 1),
        unit: 'tx/min',
        better: 'lower',
        detail:
          `pg_stat_database.xact_commit of the whole database over ${IDLE_S} s of idling (two 15 s keep-alives of ` +
          `every stream), per minute: ${round(perMinute, 1)}, less ${round(baseline, 1)}: the quieter of ${BASELINE_S} s ` +
          `before the streams opened (${round(quietBefore, 1)}) and after they closed (${round(quietAfter, 1)}), ` +
          `the process's background work and anything else on the database; ${what}`,
      },
    ];
  } finally {
    for (const fleet of fleets) fleet.close();
    await api.stop();
  }
}

/**
 * The same number of idle streams held by the bare uWebSockets.js SSE server of the edge suite (nothing but
 * the held responses): the RSS a stream costs the transport itself, beside which the API's figure is read.
 */
async function bareIdle({ log }: SuiteContext): Promise<BenchResult> {
  const bare = await startBareSse('uws');
  const fleets: SseFleet[] = [];
  try {
    await sleep(1000);
    const before = processRssBytes(bare.pid) ?? 0;
    for (let i = 0; i < DEBATES; i += 1) {
      fleets.push(await openSseFleet(`${bare.baseUrl}/stream`, {}, Math.ceil(STREAMS / DEBATES)));
    }
    const connected = fleets.reduce((sum, fleet) => sum + fleet.connected, 0);
    if (connected === 0) throw new Error('no stream connected to the bare uWebSockets.js server');
    await sleep(1000);
    const perStream = ((processRssBytes(bare.pid) ?? 0) - before) / connected;
    log(
      `bare uWebSockets.js SSE server: ${connected} idle streams, RSS ${round(perStream / 1024, 2)} KiB a stream`,
    );
    return {
      name: 'streams.idle_uws.bare_rss_per_stream_kb',
      value: round(perStream / 1024, 2),
      unit: 'KiB',
      better: 'lower',
      detail:
        `RSS of bench/servers/bare-sse.ts on uWebSockets.js (no application: the held responses only) with ` +
        `${connected} idle streams minus before, ÷ streams, read 1 s after the opens as the API's rss_per_stream_kb`,
    };
  } finally {
    for (const fleet of fleets) fleet.close();
    await bare.stop();
  }
}

async function run(ctx: SuiteContext): Promise<BenchResult[]> {
  const results: BenchResult[] = [];
  for (const transport of ['node', 'uws'] as const) results.push(...(await idle(transport, ctx)));
  results.push(await bareIdle(ctx));
  return results;
}

export const suite: Suite = {
  description:
    "idle SSE streams: 10,000 open on one API process, their heap, RSS and database traffic, on Node's http and on uWebSockets.js",
  run,
};
