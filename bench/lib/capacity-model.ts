import type { Costs } from './capacity-costs.ts';

/**
 * docs/capacity.md's formulas: what a load costs in each component, from the per-unit costs of a bench run.
 * A Node process (API, stream edge, engine node) runs its JavaScript on one event loop, so it is sized at
 * `headroom` of ONE core whatever the machine has; PostgreSQL and NATS use as many cores as they are given.
 */

export type Scenario = {
  concurrentDebates: number;
  createsPerSecond: number;
  openStreams: number;
  /** Authenticated reads a second; the answers count none, the increment line says what 1,000/s add. */
  readsPerSecond: number;
  /** The share of a core (of a process) or of cores (of a server) a plan may fill. */
  headroom: number;
  /** Connections each Node process's PostgreSQL pool may open (db/orm.ts: max 10). */
  poolPerProcess: number;
  /** Cores of one NATS server's machine: this machine's 2. */
  natsServerCores: number;
};

export const SCENARIO: Scenario = {
  concurrentDebates: 10_000,
  createsPerSecond: 1_000,
  openStreams: 100_000,
  readsPerSecond: 0,
  headroom: 0.7,
  poolPerProcess: 10,
  natsServerCores: 2,
};

export type Answers = ReturnType<typeof answer>;

const up = (x: number) => Math.max(1, Math.ceil(x - 1e-9));

/** The load's derived rates: by Little's law every created debate runs `lifeS` = concurrent ÷ creates. */
function rates(c: Costs, s: Scenario) {
  const lifeS = s.concurrentDebates / s.createsPerSecond;
  const eventsPerSecond = s.createsPerSecond * c.debate.events.value;
  const streamsPerDebate = s.openStreams / s.concurrentDebates;
  // A stream follows one running debate and gets each of its events, plus a keep-alive every interval.
  const writesPerSecond =
    s.openStreams * (c.debate.events.value / lifeS) + s.openStreams / c.stream.keepAliveS.value;
  return { lifeS, eventsPerSecond, streamsPerDebate, writesPerSecond };
}

export function answer(c: Costs, s: Scenario = SCENARIO) {
  const r = rates(c, s);
  const apiCores =
    (s.createsPerSecond * c.create.apiMs.value) / 1e3 + (s.readsPerSecond * c.read.apiUs.value) / 1e6;
  const api = { cores: apiCores, processes: up(apiCores / s.headroom) };

  const edgeCores = (r.writesPerSecond * c.stream.cpuUsPerWrite.value) / 1e6;
  const edgeByCpu = up(edgeCores / s.headroom);
  const edgeByStreams = up(s.openStreams / c.stream.heldPerProcess.value);
  const edges = {
    cores: edgeCores,
    byCpu: edgeByCpu,
    byStreamsHeld: edgeByStreams,
    processes: Math.max(edgeByCpu, edgeByStreams),
    rssGib: (s.openStreams * c.stream.rssKib.value) / 1024 ** 2,
  };

  const engineCores = (s.createsPerSecond * c.debate.nodeMs.value) / 1e3;
  const engineByCpu = up(engineCores / s.headroom);
  const engineByHeld = up(s.concurrentDebates / c.debate.heldPerNode.value);
  const engine = {
    cores: engineCores,
    byCpu: engineByCpu,
    byHeld: engineByHeld,
    nodes: Math.max(engineByCpu, engineByHeld),
    heapGib: (s.concurrentDebates * c.debate.heapKib.value) / 1024 ** 2,
  };

  const processes = api.processes + edges.processes + engine.nodes;
  const postgres = postgresFor(c, s, processes);
  const nats = natsFor(c, s, r, edges.processes);
  return { scenario: s, rates: r, api, edges, engine, postgres, nats };
}

function postgresFor(c: Costs, s: Scenario, processes: number) {
  const cores =
    (s.createsPerSecond * (c.create.postgresMs.value + c.debate.postgresMs.value)) / 1e3 +
    (s.readsPerSecond * c.read.postgresUs.value) / 1e6;
  const roundTripsPerSecond =
    s.createsPerSecond * (c.create.pgRoundTrips.value + c.debate.pgRoundTrips.value) +
    s.readsPerSecond * c.read.pgRoundTrips.value;
  return {
    cores,
    coresAtHeadroom: cores / s.headroom,
    roundTripsPerSecond,
    connections: processes * s.poolPerProcess,
    // Idle streams send no statement (streams suite): what is left a minute, all streams together.
    idleStreamTransactionsPerMin: c.stream.dbTransactionsPerMin.value,
  };
}

function natsFor(c: Costs, s: Scenario, r: ReturnType<typeof rates>, edges: number) {
  const published = s.createsPerSecond * (c.create.natsRoundTrips.value + c.debate.events.value);
  // An event reaches every edge holding a stream of its debate: at most its streams, at most every edge.
  const deliveries = r.eventsPerSecond * Math.min(r.streamsPerDebate, edges);
  const perEventMs = c.debate.natsMs.value / c.debate.events.value;
  const publishCores = (s.createsPerSecond * (c.create.natsMs.value + c.debate.natsMs.value)) / 1e3;
  // No bench measures NATS's CPU a delivery to a follower; a stored publish's (with its ack) bounds it above.
  const cores = publishCores + (deliveries * perEventMs) / 1e3;
  return {
    publishedPerSecond: published,
    deliveriesPerSecond: deliveries,
    publishCores,
    cores,
    servers: up(cores / (s.headroom * s.natsServerCores)),
  };
}

/** What 1,000 more authenticated reads a second add: API cores and PostgreSQL cores. */
export const perThousandReads = (c: Costs) => ({
  apiCores: (1000 * c.read.apiUs.value) / 1e6,
  postgresCores: (1000 * c.read.postgresUs.value) / 1e6,
});

/**
 * The two-size check: creates a second with k API processes on this machine, predicted as the lesser of the
 * k event loops (1 core each ÷ the API's CPU a create) and the cores the window had (the machine's, less what
 * other processes took, capacity.creates_k_api.cores_available) ÷ every party's CPU a create here, the load
 * generator's included (it shares the machine in the bench, not in a deployment).
 */
export function predictCreates(c: Costs, apiProcesses: number, coresAvailable: number) {
  const perCreateMs =
    c.create.apiMs.value + c.create.postgresMs.value + c.create.natsMs.value + c.create.loadGeneratorMs.value;
  const byEventLoops = (apiProcesses * 1e3) / c.create.apiMs.value;
  const byCores = (coresAvailable * 1e3) / perCreateMs;
  return { byEventLoops, byCores, predicted: Math.min(byEventLoops, byCores) };
}
