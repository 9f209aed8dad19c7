import { HISTORY_READS } from './history-reads.ts';
import type { BenchResult } from './results.ts';

/**
 * The performance targets of the service (issue "Performance: the front door, the streams and the engine
 * near their limits"), each on a figure a suite reports. Rates are ratios to bare Fastify in the same run,
 * so they compare across runs and hosts; latencies and memory are absolute. The soak's are ratios within its
 * own run (its last window against its first), and its error count.
 */
export const TARGETS: {
  name: string;
  target: number;
  better: 'higher' | 'lower';
  what: string;
  /** What binds the figure on the 2-core machine it was measured on, printed when the target is not met. */
  boundBy: string;
}[] = [
  {
    name: 'audit.export_ndjson.rss_growth_3x_over_1x',
    target: 1.5,
    better: 'lower',
    what: "audit export: the API's memory growth streaming 300,000 entries over streaming 100,000",
    boundBy:
      "V8's heap: the export holds one page of 1,000 entries at a time, but the garbage of the rows and lines it made grows the heap to the same ceiling whatever the trail's length before a major collection",
  },
  {
    name: 'api.v1_me.ratio_to_bare',
    target: 0.35,
    better: 'higher',
    what: 'GET /v1/me with a key, distributed',
    boundBy:
      "CPU per request in the API process (a plain read, answered without Fastify's pipeline: Node's http parse and write, the key's hash, the count, output validation, the log line) and its share of a counter statement; PostgreSQL and the load generator share the 2 cores",
  },
  {
    name: 'api.v1_me_embedded.ratio_to_bare',
    target: 0.35,
    better: 'higher',
    what: 'GET /v1/me, embedded',
    boundBy:
      "CPU per request in the API process: Node's http parse and write, the procedure and output validation (a plain read, answered without Fastify's pipeline; keys and counters in memory); the load generator shares the 2 cores",
  },
  {
    name: 'api.v1_health.ratio_to_bare',
    target: 0.5,
    better: 'higher',
    what: 'GET /v1/health',
    boundBy:
      "CPU per request: Node's http parse, response object and write, then the procedure and the log line (a plain read, answered without Fastify's pipeline); the load generator shares the 2 cores",
  },
  {
    name: 'api.v1_me_uws.ratio_to_bare',
    target: 0.5,
    better: 'higher',
    what: 'GET /v1/me with a key, distributed, on uWebSockets.js',
    boundBy:
      "CPU per request in the API process (a plain read, answered without Fastify or the bridge: the key's hash, the count, output validation, the log line, uWebSockets.js's write); the shared counters cost ~2 µs of PostgreSQL's a request since a hot key's budget is leased 256 units a statement (ratelimit/counter-leases.ts); the load generator and PostgreSQL share the 2 cores (`npm exec -- node bench/profile.ts --route /v1/me --streams uws --counters database`)",
  },
  {
    name: 'api.v1_health_uws.ratio_to_bare',
    target: 0.7,
    better: 'higher',
    what: 'GET /v1/health on uWebSockets.js',
    boundBy:
      "CPU per request: the procedure, output validation and the log line (a plain read, answered without Fastify or the bridge), uWebSockets.js's parse and write; the load generator shares the 2 cores",
  },
  {
    name: 'api.v1_me_embedded_uws.ratio_to_bare',
    target: 0.5,
    better: 'higher',
    what: 'GET /v1/me with a key, embedded, on uWebSockets.js',
    boundBy:
      'CPU per request in the one process: the key, its counters and output validation (a plain read, answered without Fastify or the bridge), with the in-process engine and PGlite on the same event loop; the load generator shares the 2 cores',
  },
  {
    name: 'api.v1_health_embedded_uws.ratio_to_bare',
    target: 0.7,
    better: 'higher',
    what: 'GET /v1/health, embedded, on uWebSockets.js',
    boundBy:
      "CPU per request: the procedure call and the log line (a plain read, answered without Fastify or the bridge), uWebSockets.js's parse and write; the load generator shares the 2 cores",
  },
  {
    name: 'debates.create_many_accounts.ratio_to_bare',
    target: 0.05,
    better: 'higher',
    what: 'POST /api/debates, many accounts, distributed',
    boundBy:
      'CPU on the 2 cores: PostgreSQL ~0.95 ms a create (open_debate: the lock, the active count, the debit, ledger, debate with its dozen indexes and outbox rows, in one statement) and the API ~0.7 ms (HTTP, the procedure, the statement and the JetStream publish of the job)',
  },
  {
    name: 'debates.sse_fanout.latency_p99_ms',
    target: 20,
    better: 'lower',
    what: 'publish → SSE client, 1,000 clients on one debate, p99 (ms)',
    boundBy:
      'CPU of writing each event to 1,000 sockets (20–40 µs a write here; a burst of 5–7 events queues behind itself), with the 1,000 clients on the same 2 cores',
  },
  {
    name: 'streams.idle.heap_per_stream_kb',
    target: 8,
    better: 'lower',
    what: 'heap per idle SSE stream (KiB), 10,000 open on one process',
    boundBy:
      "each stream's socket, HTTP request and response objects, keep-alive timer and closures (not broken down yet)",
  },
  {
    name: 'streams.idle.table_accesses_per_min',
    target: 0,
    better: 'lower',
    what: 'reads and writes of the service’s tables a minute while 10,000 streams idle',
    boundBy:
      'a followed debate looked at in storage: only while the notifications of ended attempts may be missed (not listening yet, or the connection lost), or at a gap in the bus',
  },
  // The stream edge on uWebSockets.js (bench/suites/edge.ts, streams.ts): ratios to bare SSE servers fed the
  // same schedule in the same run, and the idle streams' memory and database traffic.
  {
    name: 'edge.fanout_spread.ratio_to_bare',
    target: 1,
    better: 'lower',
    what: "one debate to 1,000 SSE clients, uWS: spread p99 / bare Node http's",
    boundBy:
      "the server's write loop: uWebSockets.js sends each event to each stream on its own (one corked write, one system call, ~10 µs on loopback), where Node's http corks a socket for the tick and sends a burst's events together; and the 1,000 clients in one process on the same 2 cores",
  },
  {
    name: 'edge.fanout_latency.ratio_to_bare',
    target: 1.3,
    better: 'lower',
    what: "publish → SSE client p99, 1,000 clients, uWS: / bare uWS's",
    boundBy:
      "the API's CPU per write above the bare server's (~5 µs more × 1,000 streams per event, which a burst of 5–8 events adds up before its last one leaves) and the hop the bare server does not make (engine → JetStream → the debate's consumer in the API); the clients share the 2 cores",
  },
  {
    name: 'edge.fanout_cpu.ratio_to_bare',
    target: 1.5,
    better: 'lower',
    what: "server CPU per event written, 1,000 streams, uWS: / bare uWS's",
    boundBy:
      "the kernel's loopback send, one per event and stream (~10 µs, 75–90 % of either server's CPU: each write is corked alone, so a burst's events go out one system call each, where Node's http sends a tick's writes to a socket in one); the API adds ~5 µs a write in user space (the bus decode and feed per event, the writer per write, keep-alive timers)",
  },
  {
    name: 'streams.idle_uws.heap_per_stream_kb',
    target: 6,
    better: 'lower',
    what: 'heap per idle SSE stream (KiB), 10,000 on one process, uWS',
    boundBy:
      "Fastify's request and reply, the bridged request, response and socket with their Node stream states, each kept until the stream ends (its log line, metric and span read them), then the stream's own objects (writer, FollowedDebate, the feed's membership) (`npm exec -- node bench/heap-breakdown.ts`)",
  },
  {
    name: 'streams.idle_uws.rss_per_stream_settled_kb',
    target: 6,
    better: 'lower',
    what: 'RSS per idle SSE stream (KiB), 10,000 on one process, uWS, after 46 s idle',
    boundBy:
      "V8's pages: what the streams keep on the heap (~3 KiB a stream) and the old-space pages around it; right after the opens (streams.idle_uws.rss_per_stream_kb) RSS also holds the heap the burst grew, which V8's memory reducer gives back ~8 s after the process goes quiet (memory-reducer-nudge.ts); the bare uWebSockets.js server holds ~1.2 KiB a stream (streams.idle_uws.bare_rss_per_stream_kb): it keeps nothing on the JS heap",
  },
  {
    name: 'streams.idle_uws.table_accesses_per_min',
    target: 0,
    better: 'lower',
    what: 'reads and writes of the service’s tables a minute while 10,000 streams idle, uWS',
    boundBy:
      'a followed debate looked at in storage: only while the notifications of ended attempts may be missed (not listening yet, or the connection lost), or at a gap in the bus',
  },
  {
    name: 'edge.host_idle.streams_held',
    target: 50_000,
    better: 'higher',
    what: 'idle SSE streams held across the host (API processes on uWS)',
    boundBy:
      "the opens: each reads the key, the debate and its events in PostgreSQL, and on 2 busy cores a wait past the pool's 5 s for a connection is answered 503 (Retry-After 2), which a raw client does not retry",
  },
  {
    name: 'scale.sse_under_load.from_emit_p99_ms',
    target: 100,
    better: 'lower',
    what: 'engine emit → SSE client, ~300 debates running, p99 (ms)',
    boundBy:
      "CPU: ~300 debates at 500 ms a call are more work than the 2 cores shared by the node, PostgreSQL, NATS, the API and the load generator; an event waits for its log batch's statement (three out at once, each behind the node's other work) before it is published (ARCHITECTURE.md)",
  },
  {
    name: 'engine.node.heap_per_debate_kb',
    target: 24,
    better: 'lower',
    what: 'heap per in-flight debate (KiB)',
    boundBy:
      "what each running debate holds: closures and their scopes, most of them Effect's continuations of the ~7 fibers it keeps suspended (its job, its log's writer, its classifier, its round and one a seat), its seats' calls (prompts, signals, timers) and its actor (heap snapshots: BENCH_ENGINE_HEAP_SNAPSHOT; BENCHMARKS.md \"The engine, lean\")",
  },
  {
    name: 'engine.node.max_simultaneous_debates',
    target: 3000,
    better: 'higher',
    what: 'simultaneous debates on one node with lag p99 < 50 ms',
    boundBy:
      "the node's CPU a debate (engine.node.cpu_ms_per_debate): Effect's fibers and XState's steps, the garbage they leave (GC ~23 % of the node's busiest stretches), a JetStream publish and ack per event; the debates' calls end together (a simulated 500 ms each), and the lag passes 50 ms once their continuations fill one turn of the loop",
  },
  {
    name: 'engine.node.cpu_ms_per_debate',
    target: 4,
    better: 'lower',
    what: 'CPU a simulated debate, node + PostgreSQL + NATS (ms)',
    boundBy:
      "per debate: ~20 events stored and published (a JetStream publish and ack each), 6 turns, the fibers and actor steps each wakes; its claim, mark, log batches, turns and end go in statements shared with the node's other debates, each attachments read and calibration read its own (BENCHMARKS.md 'The engine, lean: ends, claims and marks together')",
  },
  {
    name: 'engine.node.debate_critical_path_ratio',
    target: 1.1,
    better: 'lower',
    what: 'debate wall time / critical path, loaded node',
    boundBy: 'the queue (~10 ms) and the awaited turn inserts (~10 ms a round)',
  },
  {
    name: 'scale.recovery.p95_ms',
    target: 1000,
    better: 'lower',
    what: 'SIGKILL of an engine node → its debates resume, p95 (ms)',
    boundBy:
      "the interrupted call run again (the simulated 0.4 s) after the restore (one statement), on 2 cores shared with the replacement process starting; the dead node is seen gone by the others' presence watch within ~0.1 s and its debates claimed together",
  },
  {
    name: 'embedded.v1_me_under_load.p99_ratio_to_idle',
    target: 10,
    better: 'lower',
    what: 'embedded default: GET /v1/me p99 while 20 accounts create fast debates (24/s), over its idle p99',
    boundBy:
      'one event loop for the API, the engine node running the debates and PGlite (WebAssembly, synchronous): a read waits behind whatever statement or debate step holds the loop',
  },
  ...(['full_text', 'hybrid'] as const).map((mode) => ({
    name: `evidence.postgres.${mode}.p95_ms`,
    target: 50,
    better: 'lower' as const,
    what: `evidence retrieval per turn, 50 × 50,000-char attachments, ${mode === 'hybrid' ? 'hybrid' : 'full text'}, p95 (ms)`,
    boundBy:
      mode === 'hybrid'
        ? "CPU of the in-process ranking: BM25 over the query's postings and a dot product with each of ~2,500 real[] vectors (1,536 dimensions), plus three statements (the corpus's state, the query's lexemes, the chosen passages); other work on the 2 cores"
        : "CPU of BM25 over the query's postings (~2,500 passages) in the engine process, plus three statements (the corpus's state, the query's lexemes, the chosen passages); other work on the 2 cores",
  })),
  {
    name: 'metrics.cost.share_of_request_cpu',
    target: 0.02,
    better: 'lower',
    what: "the metrics' share of an API request's CPU (hook + scrapes every 15 s)",
    boundBy:
      "the onResponse hook's histogram observation (a label lookup and a bucket search per request) and the scrapes' serialization",
  },
  {
    name: 'tracing.off.share_of_request_cpu',
    target: 0.01,
    better: 'lower',
    what: "tracing off: its share of an API request's CPU",
    boundBy: "one async-context hop per request (the request id for the engine's log lines)",
  },
  {
    // Priced on the dashboard's common read, a debate by id. On the cheapest authenticated read (/v1/me,
    // tracing.on.share_of_request_cpu) the same microseconds are 15–25 %: BENCHMARKS.md, "The tracing suite".
    name: 'tracing.on.share_of_debate_read_cpu',
    target: 0.1,
    better: 'lower',
    what: "every request traced (OTLP protobuf): its share of a debate read's CPU",
    boundBy:
      'the SDK per request: a span, its attributes and context, the batch processor, and the export (protobuf encoding, an HTTP post per batch)',
  },
  ...(['tokens', 'usd'] as const).flatMap((figure) => {
    const what = figure === 'tokens' ? 'tokens' : 'list-price USD';
    const boundBy =
      "what the learnt lengths do not see: a shape's answers running longer or shorter than its model's recent ones of the same task and kind (a long question quoted in openings, a comparison's ranking), and the judge's evidence lines";
    return [
      {
        name: `estimates.${figure}.median_error_pct`,
        target: 15,
        better: 'lower' as const,
        what: `cost estimate: median error of a debate's ${what} (%)`,
        boundBy,
      },
      {
        name: `estimates.${figure}.inside_range_pct`,
        target: 80,
        better: 'higher' as const,
        what: `cost estimate: debates whose ${what} lie in the stated range (%)`,
        boundBy,
      },
    ];
  }),
  // The reads that grow with an account's history, at 1,000,000 debates and 20,000,000 events
  // (bench/suites/history.ts): the heavy account (100,000 debates) and a typical one (300).
  ...HISTORY_READS.flatMap((read) =>
    (['heavy', 'typical'] as const)
      .filter((account) => account === 'heavy' || read.label !== 'workspace_debates')
      .map((account) => ({
        name: `history.${read.label}_${account}.p95_ms`,
        target: 100,
        better: 'lower' as const,
        what: `${read.label.replaceAll('_', ' ')}, ${account} account, 1 M debates, p95 (ms)`,
        boundBy: read.boundBy ?? 'the plans in docs/plans/history.md',
      })),
  ),
  {
    name: 'soak.errors',
    target: 0,
    better: 'lower',
    what: 'soak: errors (non-2xx, failed streams, debates not completed, webhooks missing)',
    boundBy: "the errors listed in the figure's detail and the suite's log: each one is a bug to find",
  },
  ...(['api', 'engine'] as const).map((proc) => ({
    name: `soak.${proc}.rss_last_to_first`,
    target: 1.3,
    better: 'lower' as const,
    what: `soak: ${proc === 'api' ? 'API' : 'engine'} process RSS, last window / first`,
    boundBy:
      'memory kept per debate, stream or delivery that is never released (heap snapshots of the process in a long run tell what)',
  })),
  ...(['create', 'read'] as const).map((route) => ({
    name: `soak.${route}.p99_last_to_first`,
    target: 2,
    better: 'lower' as const,
    what: `soak: ${route === 'create' ? 'POST /api/debates' : 'GET /api/debates/:id'} p99, last window / first`,
    boundBy:
      "a cost that grows with the data the soak leaves (the account's debates, outcomes, deliveries) or with what piles up in a process, or other work on the machine (the per-window busy cores in the log)",
  })),
];

/** Each target with this run's figure and whether it is met; a figure whose suite did not run says so. */
export function formatTargets(results: BenchResult[]): string {
  const byName = new Map(results.map((r) => [r.name, r.value]));
  const rows = TARGETS.map((t) => {
    const value = byName.get(t.name);
    const sign = t.better === 'higher' ? '≥' : '≤';
    const verdict =
      value === undefined
        ? 'not measured in this run'
        : (t.better === 'higher' ? value >= t.target : value <= t.target)
          ? 'met'
          : 'NOT MET';
    const row = `  ${t.what.padEnd(58)} ${String(value ?? '–').padStart(9)}  target ${sign} ${t.target}  ${verdict}`;
    return verdict === 'NOT MET' ? `${row}\n      bound by: ${t.boundBy}` : row;
  });
  return `Targets:\n${rows.join('\n')}`;
}
