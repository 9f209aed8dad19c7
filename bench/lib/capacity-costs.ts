import type { BenchResult } from './results.ts';

/**
 * The per-unit costs of docs/capacity.md, each read from one row of a bench run (bench-results.json) or, for
 * the few the benches do not measure, a constant that names where it comes from. Every figure is what the
 * row says, unconverted: CPU in milliseconds or microseconds of one core, memory in KiB.
 */

/** Where a cost comes from: a result row's name, or a sentence for a constant. */
export type Source = { key: string } | { constant: string };
export type Cost = { value: number; unit: string; source: Source };

/** Every row the model reads; the snapshot (docs/capacity-inputs.json) keeps these and no others. */
export const INPUT_KEYS = [
  'debates.create_many_accounts.api_cpu_ms_per_create',
  'debates.create_many_accounts.postgres_cpu_ms_per_create',
  'debates.create_many_accounts.nats_cpu_ms_per_create',
  'debates.create_many_accounts.runner_cpu_ms_per_create',
  'debates.create_many_accounts.rps',
  'capacity.creates_1_api.pg_transactions_per_create',
  'capacity.creates_1_api.rps',
  'capacity.creates_1_api.cores_available',
  'capacity.creates_2_api.rps',
  'capacity.creates_2_api.cores_available',
  'engine.debate.critical_path_ratio',
  'engine.node.node_cpu_ms_per_debate',
  'engine.node.postgres_cpu_ms_per_debate',
  'engine.node.nats_cpu_ms_per_debate',
  'engine.node.pg_transactions_per_debate',
  'engine.node.heap_per_debate_kb',
  'engine.node.max_simultaneous_debates',
  'api.breakdown.v1_me.api_cpu_us_per_req',
  'api.breakdown.v1_me.pg_cpu_us_per_req',
  'streams.idle_uws.open',
  'streams.idle_uws.rss_per_stream_settled_kb',
  'streams.idle_uws.heap_per_stream_settled_kb',
  'streams.idle_uws.db_transactions_per_min',
  'edge.fanout_api_uws.cpu_us_per_write',
] as const;
export type InputKey = (typeof INPUT_KEYS)[number];

export type Costs = {
  create: {
    apiMs: Cost;
    postgresMs: Cost;
    natsMs: Cost;
    loadGeneratorMs: Cost;
    pgRoundTrips: Cost;
    natsRoundTrips: Cost;
  };
  debate: {
    nodeMs: Cost;
    postgresMs: Cost;
    natsMs: Cost;
    heapKib: Cost;
    events: Cost;
    pgRoundTrips: Cost;
    natsRoundTripsPerEvent: Cost;
    heldPerNode: Cost;
  };
  read: { apiUs: Cost; postgresUs: Cost; pgRoundTrips: Cost };
  stream: {
    rssKib: Cost;
    heapKib: Cost;
    cpuUsPerWrite: Cost;
    keepAliveS: Cost;
    dbTransactionsPerMin: Cost;
    heldPerProcess: Cost;
  };
};

export function rowsByName(results: BenchResult[]): Map<string, BenchResult> {
  return new Map(results.map((r) => [r.name, r]));
}

/**
 * Debates one node holds with lag p99 under 50 ms. On a machine whose other work starves the node, no step
 * passes (the row reads 0: even 25 debates started at once lag past 50 ms); the model then takes the least
 * of the quiet runs BENCHMARKS.md records for this build, and says so in the source.
 */
function heldPerNode(rows: Map<string, BenchResult>): Cost {
  const key = 'engine.node.max_simultaneous_debates';
  const row = rows.get(key);
  if (!row) throw new Error(`bench results lack ${key}: run its suite`);
  if (row.value > 0) return { value: row.value, unit: row.unit, source: { key } };
  return constant(
    100,
    'debates',
    `\`${key}\` is 0 in this run (no step passed on the busy machine); 100, the least of three quiet runs in BENCHMARKS.md "The engine, lean: where it stops" (150 · 200 · 100)`,
  );
}

/** Rows that may read 0: the rest divide or are divided by, and a 0 there is a failed measurement. */
const MAY_BE_ZERO: readonly InputKey[] = ['streams.idle_uws.db_transactions_per_min'];

function reader(rows: Map<string, BenchResult>) {
  return (key: InputKey): Cost => {
    const row = rows.get(key);
    if (!row || !Number.isFinite(row.value)) throw new Error(`bench results lack ${key}: run its suite`);
    if (row.value <= 0 && !MAY_BE_ZERO.includes(key)) {
      throw new Error(`${key} is ${row.value}: its suite measured nothing (see its detail), run it again`);
    }
    return { value: row.value, unit: row.unit, source: { key } };
  };
}

const constant = (value: number, unit: string, why: string): Cost => ({
  value,
  unit,
  source: { constant: why },
});

/** A debate's events, as the engine suite's actor run counted them (its detail: "N events per debate"). */
function eventsPerDebate(rows: Map<string, BenchResult>): Cost {
  const key = 'engine.debate.critical_path_ratio';
  const events = /(\d+) events per debate/.exec(rows.get(key)?.detail ?? '')?.[1];
  if (events === undefined) throw new Error(`bench results lack ${key} with its events per debate`);
  return { value: Number(events), unit: 'events', source: { key } };
}

export function costsFrom(results: BenchResult[]): Costs {
  const rows = rowsByName(results);
  const row = reader(rows);
  return {
    create: {
      apiMs: row('debates.create_many_accounts.api_cpu_ms_per_create'),
      postgresMs: row('debates.create_many_accounts.postgres_cpu_ms_per_create'),
      natsMs: row('debates.create_many_accounts.nats_cpu_ms_per_create'),
      loadGeneratorMs: row('debates.create_many_accounts.runner_cpu_ms_per_create'),
      pgRoundTrips: row('capacity.creates_1_api.pg_transactions_per_create'),
      natsRoundTrips: constant(
        1,
        'round trips',
        "the job's JetStream publish and its ack (debates/creation/dispatch.ts)",
      ),
    },
    debate: {
      nodeMs: row('engine.node.node_cpu_ms_per_debate'),
      postgresMs: row('engine.node.postgres_cpu_ms_per_debate'),
      natsMs: row('engine.node.nats_cpu_ms_per_debate'),
      heapKib: row('engine.node.heap_per_debate_kb'),
      events: eventsPerDebate(rows),
      pgRoundTrips: row('engine.node.pg_transactions_per_debate'),
      natsRoundTripsPerEvent: constant(1, 'round trips', 'each event is one JetStream publish and its ack'),
      heldPerNode: heldPerNode(rows),
    },
    read: {
      apiUs: row('api.breakdown.v1_me.api_cpu_us_per_req'),
      postgresUs: row('api.breakdown.v1_me.pg_cpu_us_per_req'),
      pgRoundTrips: constant(
        0,
        'round trips',
        'none for a warm key: the key cache and the coalesced rate-limit counters (BENCHMARKS.md "The key cache, coalesced counters and the stream fan-out"); the PostgreSQL CPU a read above agrees',
      ),
    },
    stream: {
      rssKib: row('streams.idle_uws.rss_per_stream_settled_kb'),
      heapKib: row('streams.idle_uws.heap_per_stream_settled_kb'),
      cpuUsPerWrite: row('edge.fanout_api_uws.cpu_us_per_write'),
      keepAliveS: constant(15, 's', 'the keep-alive interval of a stream (streams/heartbeats.ts)'),
      dbTransactionsPerMin: row('streams.idle_uws.db_transactions_per_min'),
      heldPerProcess: row('streams.idle_uws.open'),
    },
  };
}
