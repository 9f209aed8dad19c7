import { cpus } from 'node:os';
import type { BareEvent } from '../lib/bare-sse-message.ts';
import {
  AGENTS,
  apiServer,
  bareServer,
  type FanoutRun,
  type FanoutServer,
  FIRST_TOKEN_MS,
  ROUNDS,
} from '../lib/edge-fanout.ts';
import { hostIdle } from '../lib/edge-host.ts';
import { burstsOf, mergeFigures, percentile } from '../lib/fanout-figures.ts';
import { type BenchResult, round } from '../lib/results.ts';
import { BENCH_NATS_URL } from '../lib/services.ts';
import { startSseClients } from '../lib/sse-clients.ts';
import type { Suite, SuiteContext } from '../lib/suite.ts';

/**
 * The stream edge: the API's SSE on uWebSockets.js (STREAMS=uws) against bare servers measured in the
 * same run, with the API on Node's http (STREAMS=node) for the before/after.
 *
 *  1. Fan-out: one debate (AGENTS × ROUNDS on the simulated provider) to CLIENTS streams through the API
 *     on uWebSockets.js; bare SSE servers on Node's http and on uWebSockets.js fed the same schedule (the
 *     events' count, sizes and publish times, bursts included); the API on Node's http. Each server in its
 *     own process, all four up at once and run in alternation (A B C D, D C B A, …) for PASSES passes, so a
 *     busy moment of the shared machine hits them alike; the clients in one process of their own, the same
 *     for every run. Figures over all passes: the spread of each event's receipts over the clients,
 *     publish → client latency, and the server's CPU per event written to one stream.
 *  2. Host: HOST_STREAMS idle streams across HOST_APIS API processes on uWebSockets.js, one client process
 *     per API; held or not after HOLD_S seconds, and each process's memory.
 *
 * Knobs: BENCH_EDGE_CLIENTS (default 1,000), BENCH_EDGE_PASSES (default 3), BENCH_EDGE_HOST_STREAMS
 * (default 50,000; 0 skips part 2), BENCH_EDGE_HOST_APIS (default 5), BENCH_EDGE_HOLD_S (default 20).
 */
const CLIENTS = Number(process.env.BENCH_EDGE_CLIENTS ?? 1000);
const PASSES = Number(process.env.BENCH_EDGE_PASSES ?? 3);
const HOST_STREAMS = Number(process.env.BENCH_EDGE_HOST_STREAMS ?? 50_000);
const HOST_APIS = Number(process.env.BENCH_EDGE_HOST_APIS ?? 5);
const HOLD_S = Number(process.env.BENCH_EDGE_HOLD_S ?? 20);

const RUNS = {
  api_uws: 'the API on uWebSockets.js (STREAMS=uws)',
  bare_node: 'a bare Node http SSE server',
  bare_uws: 'a bare uWebSockets.js SSE server',
  api_node: "the API on Node's http (STREAMS=node)",
} as const;
type RunKey = keyof typeof RUNS;
/** The first pass starts with the API on uWebSockets.js: its debate gives the bare servers their schedule. */
const ORDER: RunKey[] = ['api_uws', 'bare_node', 'bare_uws', 'api_node'];

const ms = (v: number) => v.toFixed(2);
const mib = (bytes: number) => (bytes / 1048576).toFixed(1);

/** One server's runs as one: every (client, event) pair of every pass, and its CPU over all of them. */
function summary(runs: FanoutRun[]) {
  const f = mergeFigures(runs.map((r) => r.figures));
  const cpuSeconds = runs.reduce((s, r) => s + r.cpuSeconds, 0);
  const systemSeconds = runs.reduce((s, r) => s + r.systemSeconds, 0);
  return {
    ...f,
    systemSeconds,
    spreadP99: percentile(f.spread, 99),
    latencyP99: percentile(f.latency, 99),
    cpuUsPerWrite: (cpuSeconds * 1e6) / Math.max(1, f.writes),
    cpuSeconds,
  };
}
type Summary = ReturnType<typeof summary>;

function describeRuns(key: RunKey, runs: FanoutRun[], s: Summary): string {
  const each = (of: (r: FanoutRun) => string) => runs.map(of).join(', ');
  return (
    `${RUNS[key]}, ${runs.length} passes of ${s.clients} clients × ${s.events} events (connected per pass: ` +
    `${each((r) => `${r.opened.connected} in ${r.opened.connectMs.toFixed(0)} ms`)}; ` +
    `${runs.reduce((n, r) => n + r.opened.failed, 0)} failed): spread p50 ${ms(percentile(s.spread, 50))} / p99 ` +
    `${ms(s.spreadP99)} / max ${ms(percentile(s.spread, 100))} ms (p99 per pass ` +
    `${each((r) => ms(percentile(r.figures.spread, 99)))}); publish → client p50 ${ms(percentile(s.latency, 50))} / ` +
    `p99 ${ms(s.latencyP99)} / max ${ms(percentile(s.latency, 100))} ms (p99 per pass ` +
    `${each((r) => ms(percentile(r.figures.latency, 99)))}); server CPU ${s.cpuSeconds.toFixed(3)} s over ` +
    `${s.writes} event writes = ${s.cpuUsPerWrite.toFixed(2)} µs each, ` +
    `${((100 * s.systemSeconds) / Math.max(1e-9, s.cpuSeconds)).toFixed(0)} % of it in the kernel (per pass ` +
    `${each((r) => ((r.cpuSeconds * 1e6) / Math.max(1, r.figures.events * r.figures.clients)).toFixed(2))} µs; ` +
    `windows ${each((r) => (r.windowMs / 1000).toFixed(2))} s)` +
    (s.problems.length
      ? `; DELIVERY FAILED: ${s.problems.join('; ')}`
      : '; every client got every event in order')
  );
}

async function fanout({ settings, log }: SuiteContext): Promise<BenchResult[]> {
  log(`fan-out: ${CLIENTS} clients, ${PASSES} passes over the API on uws and node and the bare servers`);
  const clients = await startSseClients();
  const servers: Partial<Record<RunKey, FanoutServer>> = {};
  const runs: Record<RunKey, FanoutRun[]> = { api_uws: [], bare_node: [], bare_uws: [], api_node: [] };
  let schedule: BareEvent[] | null = null;
  try {
    servers.api_uws = await apiServer('uws', settings.databaseUrl);
    servers.api_node = await apiServer('node', settings.databaseUrl);
    servers.bare_node = await bareServer('node');
    servers.bare_uws = await bareServer('uws');
    for (let pass = 1; pass <= PASSES; pass++) {
      for (const key of pass % 2 === 1 ? ORDER : [...ORDER].reverse()) {
        const run = await (servers[key] as FanoutServer).run(clients, CLIENTS, schedule);
        if (key === 'api_uws') schedule = run.schedule;
        runs[key].push(run);
        log(`pass ${pass}: ${describeRuns(key, [run], summary([run]))}`);
      }
    }
  } finally {
    await clients.stop().catch(() => {});
    for (const server of Object.values(servers)) await server.stop();
  }

  const s = Object.fromEntries(ORDER.map((key) => [key, summary(runs[key])])) as Record<RunKey, Summary>;
  const first = runs.api_uws[0] as FanoutRun;
  const bursts = burstsOf(first.published);
  const debateMs = (first.published.at(-1)?.publishAt ?? 0) - (first.published[0]?.publishAt ?? 0);
  const method =
    `One debate (${AGENTS} agents × ${ROUNDS} rounds, mode fast, simulated provider ${FIRST_TOKEN_MS} ms a call, ` +
    `nothing streamed) run by an engine node in its own process and published over NATS JetStream to one API ` +
    `process in distributed mode (fresh schema and prefix), ${CLIENTS} raw node:http SSE clients in one client ` +
    `process of their own (100 handshakes at a time) on its stream, all open before the engine starts; the ` +
    `first: ${first.figures.events} events over ${(debateMs / 1000).toFixed(2)} s, ${bursts.length} bursts ` +
    `(events < 20 ms apart) of ${bursts.join(', ')}. The bare servers (bench/servers/bare-sse.ts) hold GET ` +
    '/stream with the same SSE headers and, told over IPC, publish the schedule of the last debate of the API ' +
    'on uWebSockets.js (each event at its offset from the first, the same size on the wire, encoded once) to ' +
    'the same client process, then end the streams. The four servers are up at once and run in alternation, ' +
    `${PASSES} passes (${ORDER.join(', ')}, then the reverse, …). Receipt = the client's chunk receipt; ` +
    "publish = the engine's time just before its JetStream publish (the API) or the event's due time (the bare " +
    "servers); spread = a client's receipt − the event's earliest receipt; CPU = the server process's " +
    "process.cpuUsage() from the start of publishing to the last client's end of stream, ÷ (events × " +
    `clients). Percentiles over every (client, event) pair of every pass. All on one machine with ` +
    `${cpus().length} CPUs.`;

  const results: BenchResult[] = [];
  for (const key of ORDER) {
    const f = s[key];
    const detail = `${describeRuns(key, runs[key], f)}. See edge.fanout.method.`;
    const row = (metric: string, value: number, unit: string): BenchResult => ({
      name: `edge.fanout_${key}.${metric}`,
      value: round(value),
      unit,
      better: 'lower',
      detail,
    });
    results.push(
      row('spread_p99_ms', f.spreadP99, 'ms'),
      row('latency_p50_ms', percentile(f.latency, 50), 'ms'),
      row('latency_p99_ms', f.latencyP99, 'ms'),
      row('cpu_us_per_write', f.cpuUsPerWrite, 'µs'),
    );
  }
  const ratio = (
    name: string,
    figure: string,
    of: (f: Summary) => number,
    api: RunKey,
    bare: RunKey,
  ): BenchResult => ({
    name,
    value: round(of(s[api]) / of(s[bare]), 3),
    unit: 'x',
    better: 'lower',
    detail:
      `${figure}: ${RUNS[api]} ${of(s[api]).toFixed(2)} / ${RUNS[bare]} ${of(s[bare]).toFixed(2)}, same run, ` +
      'same schedule, same clients. See edge.fanout.method.',
  });
  const spread = (f: Summary) => f.spreadP99;
  const latency = (f: Summary) => f.latencyP99;
  const cpu = (f: Summary) => f.cpuUsPerWrite;
  results.push(
    ratio('edge.fanout_spread.ratio_to_bare', 'spread p99 (ms)', spread, 'api_uws', 'bare_node'),
    ratio('edge.fanout_spread.node_ratio_to_bare', 'spread p99 (ms)', spread, 'api_node', 'bare_node'),
    ratio('edge.fanout_latency.ratio_to_bare', 'publish → client p99 (ms)', latency, 'api_uws', 'bare_uws'),
    ratio(
      'edge.fanout_latency.node_ratio_to_bare',
      'publish → client p99 (ms)',
      latency,
      'api_node',
      'bare_uws',
    ),
    ratio('edge.fanout_cpu.ratio_to_bare', 'server CPU per event written (µs)', cpu, 'api_uws', 'bare_uws'),
    ratio(
      'edge.fanout_cpu.node_ratio_to_bare',
      'server CPU per event written (µs)',
      cpu,
      'api_node',
      'bare_uws',
    ),
  );
  const failed = ORDER.filter((key) => s[key].problems.length);
  results.push(
    {
      name: 'edge.fanout.delivery_complete',
      value: failed.length ? 0 : 1,
      unit: 'bool',
      better: 'higher',
      detail: ORDER.map((key) => describeRuns(key, runs[key], s[key])).join('. '),
    },
    { name: 'edge.fanout.method', value: CLIENTS, unit: 'clients', better: 'higher', detail: method },
  );
  if (failed.length) {
    // Loud: figures of an incomplete delivery mean nothing.
    throw new Error(
      `SSE delivery incomplete: ${failed.map((key) => `${key}: ${s[key].problems.join('; ')}`).join(' / ')}`,
    );
  }
  return results;
}

async function host({ settings, log }: SuiteContext): Promise<BenchResult[]> {
  const h = await hostIdle({
    apis: HOST_APIS,
    streams: HOST_STREAMS,
    holdS: HOLD_S,
    databaseUrl: settings.databaseUrl,
    natsUrl: BENCH_NATS_URL,
    log,
  });
  const held = h.held.reduce((a, b) => a + b, 0);
  const connected = h.opened.reduce((n, o) => n + o.connected, 0);
  const failed = h.opened.reduce((n, o) => n + o.failed, 0);
  const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);
  const rss = h.after.map((s) => s.memory.rss);
  const heap = h.after.map((s) => s.memory.heapUsed);
  const rssPerStream = mean(
    h.after.map((s, i) => (s.memory.rss - (h.before[i]?.memory.rss ?? 0)) / Math.max(1, h.held[i] ?? 0)),
  );
  const heapPerStream = mean(
    h.after.map(
      (s, i) => (s.memory.heapUsed - (h.before[i]?.memory.heapUsed ?? 0)) / Math.max(1, h.held[i] ?? 0),
    ),
  );
  log(`host: ${held}/${h.requested} held after ${h.holdS} s; API RSS ${rss.map(mib).join(', ')} MiB`);
  const what =
    `${h.requested} SSE streams requested across ${h.apis} API processes on uWebSockets.js (STREAMS=uws, ` +
    `distributed mode, each its own schema and NATS prefix, 10 pending debates, no engine), one client process ` +
    `per API (raw node:http, ${h.openConcurrency} handshakes at a time each): ${connected} connected in ${(h.openMs / 1000).toFixed(1)} s ` +
    `(${failed} failed${
      failed
        ? `: ${h.opened
            .flatMap((o) => o.failures)
            .slice(0, 3)
            .join(' | ')}`
        : ''
    }), ${held} ` +
    `still open at the clients after ${h.holdS} s (per process ${h.held.join(', ')}). Per API process after gc(): ` +
    `RSS ${rss.map(mib).join(', ')} MiB, heapUsed ${heap.map(mib).join(', ')} MiB (before the streams: RSS ` +
    `${h.before.map((s) => mib(s.memory.rss)).join(', ')} MiB); client processes' RSS ` +
    `${h.clientRssBytes.map(mib).join(', ')} MiB. Open-file limit of every process ${h.filesLimit ?? 'unknown'} ` +
    `(ulimit -n; ${Math.ceil(h.requested / h.apis)} streams per process).`;
  return [
    { name: 'edge.host_idle.streams_held', value: held, unit: 'streams', better: 'higher', detail: what },
    {
      name: 'edge.host_idle.api_rss_mib',
      value: round(mean(rss) / 1048576, 1),
      unit: 'MiB',
      better: 'lower',
      detail: `mean over the API processes. ${what}`,
    },
    {
      name: 'edge.host_idle.api_heap_mib',
      value: round(mean(heap) / 1048576, 1),
      unit: 'MiB',
      better: 'lower',
      detail: `mean over the API processes, after gc(). ${what}`,
    },
    {
      name: 'edge.host_idle.rss_per_stream_kb',
      value: round(rssPerStream / 1024, 1),
      unit: 'KiB',
      better: 'lower',
      detail: `each API's RSS after the hold minus before the streams, ÷ its streams held, mean over the processes. ${what}`,
    },
    {
      name: 'edge.host_idle.heap_per_stream_kb',
      value: round(heapPerStream / 1024, 1),
      unit: 'KiB',
      better: 'lower',
      detail: `the same for heapUsed after gc(). ${what}`,
    },
  ];
}

async function run(ctx: SuiteContext): Promise<BenchResult[]> {
  const results = await fanout(ctx);
  if (HOST_STREAMS > 0) results.push(...(await host(ctx)));
  return results;
}

export const suite: Suite = {
  description:
    'the stream edge: one debate to 1,000 SSE clients through the API on uWebSockets.js and on Node http against bare servers, and 50,000 idle streams across API processes',
  run,
};
