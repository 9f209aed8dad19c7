import { writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import autocannon from 'autocannon';
import { expectOk, startBareServer } from '../lib/api-servers.ts';
import { type Cpu, cpuDelta, cpuNow, describeCpu } from '../lib/cpu.ts';
import { createRequests } from '../lib/create-load.ts';
import {
  type ApiStats,
  createFanoutDebate,
  type DebatesApi,
  type DebatesEngine,
  type Deployment,
  dropDeployment,
  type EngineEnded,
  newDeployment,
  startDebatesApi,
  startDebatesEngine,
} from '../lib/debates-servers.ts';
import { type ClientOutcome, openSseFleet, type SseFleet } from '../lib/debates-sse.ts';
import { describeLoad, type LoadOptions, type LoadResult, measure, toLoadResult } from '../lib/load.ts';
import { type BenchResult, round } from '../lib/results.ts';
import { BENCH_NATS_URL } from '../lib/services.ts';
import type { BenchSettings, Suite, SuiteContext } from '../lib/suite.ts';

/**
 * Debates through the API in distributed mode (PostgreSQL + NATS JetStream, fresh schema and stream
 * prefix per part, removed afterwards):
 *  1. POST /api/debates throughput (skipCache, distinct questions): one key (one account), then one key
 *     per connection (as many accounts as connections). No engine runs: debates stay pending, but each
 *     create's job publish to JetStream is part of the request.
 *  2. SSE fan-out: SSE_CLIENTS raw HTTP clients on one running debate through one API process, an engine
 *     node in its own process running it on the simulated provider. Latency = client receipt − the
 *     engine's publish of the event (both epoch ms on one machine's clock).
 */

const SSE_CLIENTS = 1000;
const SSE_AGENTS = 3;
const SSE_ROUNDS = 5;
/** Per simulated call; nothing streams (the engine passes no onDelta), so a round is one such wait. */
const FIRST_TOKEN_MS = 500;

const now = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const kib = (bytes: number) => bytes / 1024;
const mib = (bytes: number) => (bytes / 1048576).toFixed(1);

function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i] ?? Number.NaN;
}

// ---------------------------------------------------------------------------------------------------
// 1. Creates

/** `created`: 201s of the measured window; `createdWithWarmup` also counts the warm-up's. */
type CreateRun = {
  load: LoadResult;
  perSecond: number[];
  created: number;
  createdWithWarmup: number;
  cpu: Cpu;
};

/** autocannon POSTing distinct questions; `keys[i % keys.length]` for the i-th connection. */
async function loadCreates(
  baseUrl: string,
  keys: string[],
  settings: BenchSettings,
  tag: string,
  apiPid: number,
): Promise<CreateRun> {
  const requests = createRequests(keys, tag);
  const base = {
    url: baseUrl,
    connections: settings.connections,
    pipelining: 1,
    timeout: 10,
    requests,
  };
  const fire = (duration: number, onResponse?: (status: number) => void) =>
    new Promise<autocannon.Result>((resolve, reject) => {
      const instance = autocannon({ ...base, duration }, (err, result) =>
        err ? reject(err) : resolve(result),
      );
      if (onResponse) instance.on('response', (_client, status) => onResponse(status));
    });
  let warmupCreated = 0;
  if (settings.warmupS > 0) {
    await fire(settings.warmupS, (status) => {
      if (status === 201) warmupCreated++;
    });
  }
  const cpu0 = cpuNow({ api: apiPid, engine: 0 });
  const t0 = now();
  const perSecond: number[] = [];
  let created = 0;
  const r = await fire(settings.durationS, (status) => {
    if (status !== 201) return;
    created++;
    const s = Math.floor((now() - t0) / 1000);
    perSecond[s] = (perSecond[s] ?? 0) + 1;
  });
  const cpu = cpuDelta(cpu0, cpuNow({ api: apiPid, engine: 0 }));
  const load: LoadResult = toLoadResult(r);
  return {
    load,
    perSecond: Array.from(perSecond, (v) => v ?? 0),
    created,
    createdWithWarmup: created + warmupCreated,
    cpu,
  };
}

/**
 * Each side's CPU per 201 of the measured window, as rows of their own: docs/capacity.md's model reads them
 * (the runner's is the load generator's, which a deployment does not have).
 */
function cpuPerCreateRows(target: string, run: CreateRun, detail: string): BenchResult[] {
  const sides = ['api', 'postgres', 'nats', 'runner'] as const;
  return sides.map((side) => ({
    name: `debates.${target}.${side}_cpu_ms_per_create`,
    value: round((run.cpu[side] / Math.max(1, run.created)) * 1000, 3),
    unit: 'ms',
    better: 'lower' as const,
    detail,
  }));
}

/** Messages in the prefix's job stream: one per create that reached JetStream. */
async function jobsInStream(nc: NatsConnection, d: Deployment): Promise<number> {
  const jsm = await jetstreamManager(nc);
  const name = `${d.prefix.replace(/[^A-Za-z0-9_-]/g, '_').toUpperCase()}DEBATE_JOBS`;
  return (await jsm.streams.info(name)).state.messages;
}

async function createThroughput(settings: BenchSettings, log: SuiteContext['log']): Promise<BenchResult[]> {
  const results: BenchResult[] = [];
  const loadOptions = (url: string): LoadOptions => ({
    url,
    connections: settings.connections,
    durationS: settings.durationS,
    warmupS: settings.warmupS,
  });

  log('bare Fastify: GET /bare (for ratio_to_bare)');
  let bare: LoadResult | null = null;
  const bareServer = await startBareServer();
  try {
    const opts = loadOptions(`${bareServer.baseUrl}/bare`);
    await expectOk(opts.url);
    bare = await measure(opts);
  } finally {
    await bareServer.stop();
  }

  const d = newDeployment(settings.databaseUrl, BENCH_NATS_URL);
  // The one-key variant's account, then one fresh account per connection for the many-accounts variant: the
  // first account holds every debate the one-key variant left pending, which each of its creates counts.
  const users = 1 + Math.max(1, settings.connections);
  log(`distributed API (schema ${d.schema}, ${users} accounts): POST /api/debates, skipCache, no engine`);
  const api = await startDebatesApi(d, { users });
  const nc = await connect({ servers: [BENCH_NATS_URL], name: 'bench-debates-runner' });
  try {
    const probe = await fetch(`${api.baseUrl}/api/debates`, {
      method: 'POST',
      headers: { authorization: `Bearer ${api.keys[0]}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        question: 'Is this bench probe a valid question?',
        mode: 'fast',
        skipCache: true,
      }),
    });
    const probeBody = await probe.text();
    if (probe.status !== 201) throw new Error(`POST /api/debates answered ${probe.status}: ${probeBody}`);
    const jobsBefore = await jobsInStream(nc, d);

    const variants: { target: string; keys: string[]; what: string }[] = [
      {
        target: 'create',
        keys: api.keys.slice(0, 1),
        what:
          'authenticated POST /api/debates {question (distinct), mode fast, skipCache true} with ONE API key ' +
          '(one account: creates of one account serialize on its row lock), distributed mode (PostgreSQL, ' +
          'database rate-limit counters, job published to NATS JetStream before the 201), no engine running',
      },
      {
        target: 'create_many_accounts',
        keys: api.keys.slice(1),
        what:
          `the same with one API key (one account) per connection, ${api.keys.length - 1} accounts (none the ` +
          'one-key variant used), so the ' +
          'per-account row lock and per-account counts do not serialize the creates',
      },
    ];
    const runs: Record<string, CreateRun> = {};
    for (const v of variants) {
      log(`${v.target}: ${settings.connections} connections, ${v.keys.length} key(s)`);
      const run = await loadCreates(api.baseUrl, v.keys, settings, v.target, api.pid);
      runs[v.target] = run;
      const opts = loadOptions(`${api.baseUrl}/api/debates`);
      const seconds = run.perSecond;
      const trend = seconds.length >= 2 ? `; 201s per second over the window: ${seconds.join(', ')}` : '';
      const perRequest = (seconds: number) => ((seconds / Math.max(1, run.created)) * 1000).toFixed(2);
      const cpuText =
        `; CPU s in the measured window: ${describeCpu(run.cpu, 'runner (autocannon)')} (per 201: API ` +
        `${perRequest(run.cpu.api)} ms, PostgreSQL ${perRequest(run.cpu.postgres)} ms, NATS ` +
        `${perRequest(run.cpu.nats)} ms) on ${cpus().length} CPUs`;
      const detail = `${v.what}; ${describeLoad(opts, run.load)}${trend}${cpuText}`;
      log(
        `${v.target}: ${Math.round(run.load.rps)} req/s, p50 ${run.load.p50Ms} ms, p99 ${run.load.p99Ms} ms${trend}${cpuText}`,
      );
      results.push(
        {
          name: `debates.${v.target}.rps`,
          value: round(run.load.rps, 0),
          unit: 'req/s',
          better: 'higher',
          detail,
        },
        {
          name: `debates.${v.target}.p50_ms`,
          value: round(run.load.p50Ms),
          unit: 'ms',
          better: 'lower',
          detail,
        },
        {
          name: `debates.${v.target}.p99_ms`,
          value: round(run.load.p99Ms),
          unit: 'ms',
          better: 'lower',
          detail,
        },
        ...cpuPerCreateRows(v.target, run, detail),
      );
    }
    const jobs = (await jobsInStream(nc, d)) - jobsBefore;
    const answered = Object.values(runs).reduce((sum, r) => sum + r.createdWithWarmup, 0);
    // autocannon stops each run with up to `connections` creates in flight: served, but not counted.
    const cutOff = Object.keys(runs).length * (settings.warmupS > 0 ? 2 : 1) * settings.connections;
    const jobsText =
      jobs >= answered && jobs <= answered + cutOff
        ? `JetStream holds ${jobs} jobs for ${answered} counted 201s, warm-ups included (the rest: creates ` +
          `in flight when autocannon stopped, at most ${cutOff})`
        : `JOB MISMATCH: ${jobs} jobs in JetStream for ${answered} counted 201s (warm-ups included; up to ` +
          `${cutOff} more may have been in flight when autocannon stopped)`;
    // Each create variant as a ratio to the bare route of the same run, under the same load shape.
    for (const [target, who] of [
      ['create', 'one key'],
      ['create_many_accounts', 'one account and key per connection'],
    ] as const) {
      const run = runs[target];
      if (!bare || !run) continue;
      results.push({
        name: `debates.${target}.ratio_to_bare`,
        value: round(run.load.rps / bare.rps, 4),
        unit: 'x',
        better: 'higher',
        detail:
          `POST /api/debates (${who}) ${Math.round(run.load.rps)} / ${Math.round(bare.rps)} req/s of the ` +
          `bare Fastify GET /bare, same run, same load shape (${describeLoad(loadOptions('bare'), bare)}). ` +
          `${jobsText}.`,
      });
    }
    log(jobsText);
  } finally {
    await nc.close().catch(() => {});
    await api.stop();
  }
  return results;
}

// ---------------------------------------------------------------------------------------------------
// 2. SSE fan-out

async function eventConsumers(nc: NatsConnection, d: Deployment): Promise<number> {
  const jsm = await jetstreamManager(nc);
  const name = `${d.prefix.replace(/[^A-Za-z0-9_-]/g, '_').toUpperCase()}DEBATE_EVENTS`;
  return (await jsm.streams.info(name)).state.consumer_count;
}

type Check = { ok: boolean; problems: string[] };

/** Every client must have every published event, in order, without gaps or repeats, and an ended stream. */
function checkDelivery(outcomes: ClientOutcome[], ended: EngineEnded): Check {
  const expected = ended.published.map((e) => e.seq);
  const problems: string[] = [];
  if (ended.status !== 'completed') problems.push(`the debate ended ${ended.status}`);
  if (!expected.every((seq, i) => seq === i + 1)) problems.push('the engine published a gapped sequence');
  let bad = 0;
  for (const [i, c] of outcomes.entries()) {
    const ids = c.events.map((e) => e.id);
    const same = ids.length === expected.length && ids.every((id, k) => id === expected[k]);
    const last = c.events.at(-1)?.type;
    if (!same || !c.ended || c.error || last !== 'debate.completed') {
      bad++;
      if (problems.length < 5) {
        problems.push(
          `client ${i}: ${ids.length}/${expected.length} events (first ids ${ids.slice(0, 5).join(',')}…), ` +
            `ended ${c.ended}, last ${last}, error ${c.error}`,
        );
      }
    }
  }
  if (bad) problems.unshift(`${bad} of ${outcomes.length} clients did not receive every event in order`);
  return { ok: problems.length === 0, problems };
}

/** Latencies of every (client, event) delivery against the engine's publish time of that event. */
function latencies(outcomes: ClientOutcome[], ended: EngineEnded) {
  const published = new Map(ended.published.map((e) => [e.seq, e]));
  const fromPublish: number[] = [];
  const fromCreated: number[] = [];
  const first = new Map<number, number>();
  const last = new Map<number, number>();
  for (const c of outcomes) {
    for (const e of c.events) {
      const p = published.get(e.id);
      if (!p) continue;
      fromPublish.push(e.receivedAt - p.publishAt);
      fromCreated.push(e.receivedAt - p.at);
      first.set(e.id, Math.min(first.get(e.id) ?? Number.POSITIVE_INFINITY, e.receivedAt));
      last.set(e.id, Math.max(last.get(e.id) ?? 0, e.receivedAt));
    }
  }
  const sorted = (values: Iterable<number>) => Float64Array.from(values).sort();
  return {
    fromPublish: sorted(fromPublish),
    fromCreated: sorted(fromCreated),
    firstClient: sorted([...first].map(([seq, t]) => t - (published.get(seq)?.publishAt ?? t))),
    spread: sorted([...first].map(([seq, t]) => (last.get(seq) ?? t) - t)),
    publishAck: sorted(ended.published.map((e) => e.ackedAt - e.publishAt)),
    /** Events published within 20 ms of the previous one form one burst. */
    bursts: ended.published.reduce<number[]>((acc, e, i, all) => {
      const prev = all[i - 1];
      if (prev && e.publishAt - prev.publishAt < 20) acc[acc.length - 1] = (acc.at(-1) ?? 0) + 1;
      else acc.push(1);
      return acc;
    }, []),
    debateMs: (ended.published.at(-1)?.publishAt ?? 0) - (ended.published[0]?.publishAt ?? 0),
  };
}

/** BENCH_DEBATES_DUMP=<file>: per event, its publish times and the receipt spread over the clients. */
async function dump(
  file: string,
  outcomes: ClientOutcome[],
  ended: EngineEnded,
  outcomesAlone: ClientOutcome[],
  endedAlone: EngineEnded,
) {
  const perEvent = (all: ClientOutcome[], e: EngineEnded) =>
    e.published.map((p) => {
      const got = Float64Array.from(
        all.map((c) => (c.events.find((x) => x.id === p.seq)?.receivedAt ?? Number.NaN) - p.publishAt),
      ).sort();
      return {
        seq: p.seq,
        type: p.type,
        publishAtMs: round(p.publishAt - (e.published[0]?.publishAt ?? 0), 1),
        ackMs: round(p.ackedAt - p.publishAt, 2),
        createdToPublishMs: round(p.publishAt - p.at, 1),
        latencyMs: {
          min: round(got[0] ?? 0),
          p50: round(percentile(got, 50)),
          max: round(percentile(got, 100)),
        },
      };
    });
  await writeFile(
    file,
    JSON.stringify(
      { fanout: perEvent(outcomes, ended), single: perEvent(outcomesAlone, endedAlone) },
      null,
      1,
    ),
  );
}

const pct = (a: Float64Array, q: number) => percentile(a, q).toFixed(1);
const lagOf = (s: ApiStats) =>
  `p50 ${Math.max(0, s.lag.p50Ms - 10).toFixed(1)} / p99 ${Math.max(0, s.lag.p99Ms - 10).toFixed(1)} / max ` +
  `${Math.max(0, s.lag.maxMs - 10).toFixed(1)} ms`;

/**
 * Two debates on one API process and one engine node with one slot, so they run one after the other in
 * the order created: the baseline one (one client) first, then the fan-out one (SSE_CLIENTS clients). All
 * streams are open before the engine starts; the fan-out streams idle (their bus consumers filter on the
 * other debate) while the baseline runs.
 */
async function sseFanout(settings: BenchSettings, log: SuiteContext['log']): Promise<BenchResult[]> {
  const d = newDeployment(settings.databaseUrl, BENCH_NATS_URL);
  log(`SSE fan-out: API + engine node (schema ${d.schema}), ${SSE_CLIENTS} clients on one debate`);
  let api: DebatesApi | undefined;
  let engine: DebatesEngine | undefined;
  const fleets: SseFleet[] = [];
  const nc = await connect({ servers: [BENCH_NATS_URL], name: 'bench-debates-runner' });
  try {
    // One after the other: the API runs the migrations the engine's database then finds.
    api = await startDebatesApi(d);
    engine = await startDebatesEngine(d, { firstTokenMs: FIRST_TOKEN_MS, tokensPerSecond: 0 }, { slots: 1 });
    const auth = { authorization: `Bearer ${api.keys[0]}` };
    const single = await createFanoutDebate(api, { agents: SSE_AGENTS, rounds: SSE_ROUNDS });
    const fanout = await createFanoutDebate(api, { agents: SSE_AGENTS, rounds: SSE_ROUNDS });

    const consumersBefore = await eventConsumers(nc, d);
    const alone = await openSseFleet(`${api.baseUrl}${single.path}`, auth, 1);
    fleets.push(alone);
    if (alone.connected !== 1) throw new Error(`the baseline client did not connect: ${alone.failures[0]}`);
    const before = await api.stats();
    const fleet = await openSseFleet(`${api.baseUrl}${fanout.path}`, auth, SSE_CLIENTS);
    fleets.push(fleet);
    log(
      `${fleet.connected}/${SSE_CLIENTS} streams open in ${fleet.connectMs.toFixed(0)} ms` +
        (fleet.failures.length ? `; failures: ${fleet.failures.slice(0, 3).join(' | ')}` : ''),
    );
    if (fleet.connected === 0) throw new Error(`no SSE client connected: ${fleet.failures[0]}`);
    // Headers go out before each stream's bus subscription exists: wait until the API holds them all.
    const want = consumersBefore + 1 + fleet.connected;
    const deadline = Date.now() + 20_000;
    let consumers = await eventConsumers(nc, d);
    while (consumers < want && Date.now() < deadline) {
      await sleep(100);
      consumers = await eventConsumers(nc, d);
    }
    const streamConsumers = consumers - consumersBefore - 1;
    log(`${streamConsumers} JetStream consumers on the events stream for the fan-out streams`);
    await sleep(500); // let the subscriptions' first pulls settle
    const open = await api.stats();

    engine.start();
    const endedAlone = await engine.ended(single.id, 60_000);
    // The slot pulls the fan-out debate's job at once; its first event follows ~10-20 ms later.
    const pids = { api: api.pid, engine: engine.pid };
    const cpu0 = cpuNow(pids);
    const t0 = now();
    await api.stats({ gc: false }); // resets the API's lag histogram; no gc() while a debate runs
    const outcomesAlone = await alone.finished(20_000);
    const ended = await engine.ended(fanout.id, 60_000);
    const outcomes = await fleet.finished(20_000);
    const wallMs = now() - t0;
    const cpu = cpuDelta(cpu0, cpuNow(pids));
    const during = await api.stats({ gc: false });

    if (process.env.BENCH_DEBATES_DUMP)
      await dump(process.env.BENCH_DEBATES_DUMP, outcomes, ended, outcomesAlone, endedAlone);
    const check = checkDelivery(outcomes, ended);
    const checkAlone = checkDelivery(outcomesAlone, endedAlone);
    const lat = latencies(outcomes, ended);
    const base = latencies(outcomesAlone, endedAlone);
    const heapDelta = open.memory.heapUsed - before.memory.heapUsed;
    const rssDelta = open.memory.rss - before.memory.rss;
    const externalDelta = open.memory.external - before.memory.external;
    log(
      `latency publish→client p50 ${pct(lat.fromPublish, 50)} ms, p99 ${pct(lat.fromPublish, 99)} ms over ` +
        `${lat.fromPublish.length} deliveries (1 client: p50 ${pct(base.fromPublish, 50)}, p99 ` +
        `${pct(base.fromPublish, 99)} ms); ${ended.published.length} events; delivery ` +
        `${check.ok && checkAlone.ok ? 'complete' : 'INCOMPLETE'}`,
    );
    log(
      `API heap +${mib(heapDelta)} MiB, RSS +${mib(rssDelta)} MiB for ${fleet.connected} streams; CPU s ` +
        describeCpu(cpu, 'runner (clients)'),
    );

    const delivery = check.ok
      ? `Delivery: all ${outcomes.length} clients received all ${ended.published.length} events (seq ` +
        `1..${ended.published.length}) in order, no gap or repeat, ending with debate.completed and the server ` +
        'closing the stream.'
      : `DELIVERY FAILED: ${check.problems.join('; ')}.`;
    const bursts = `${lat.bursts.length} bursts (events published < 20 ms apart) of ${lat.bursts.join(', ')} events`;
    const method =
      `Two debates (${SSE_AGENTS} agents × ${SSE_ROUNDS} rounds, mode fast, simulated provider ` +
      `${FIRST_TOKEN_MS} ms per call, nothing streamed) created through POST /api/debates of one API process ` +
      `(own Node process, distributed mode, fresh schema and NATS prefix). ${SSE_CLIENTS} raw node:http ` +
      `clients in the runner process (one keep-alive socket each, ≤100 handshakes at once) open GET ` +
      `/api/debates/:id/stream of the second with the API key before anything runs (${fleet.connected} connected ` +
      `in ${fleet.connectMs.toFixed(0)} ms, ${fleet.failures.length} failed; the API then held ${streamConsumers} ` +
      `JetStream consumers on the events stream for them, one per stream), one client the first's. Then an ` +
      `engine node in its own process (one slot) runs the first (the one-client baseline) and then the second ` +
      `(${ended.published.length} events over ${(lat.debateMs / 1000).toFixed(2)} s, ${bursts}). Latency per (client, ` +
      `event) = the client's chunk receipt time − the engine's time just before its JetStream publish of that ` +
      `event (after its PostgreSQL insert), both performance.timeOrigin + now() on one machine.`;
    const latencyDetail =
      `${method} ${lat.fromPublish.length} deliveries: p50 ${pct(lat.fromPublish, 50)}, p90 ` +
      `${pct(lat.fromPublish, 90)}, p99 ${pct(lat.fromPublish, 99)}, max ${pct(lat.fromPublish, 100)} ms. ` +
      `First client per event: p50 ${pct(lat.firstClient, 50)}, max ${pct(lat.firstClient, 100)} ms; spread ` +
      `first→last client per event: p50 ${pct(lat.spread, 50)}, max ${pct(lat.spread, 100)} ms. Baseline, the ` +
      `same debate with one client: p50 ${pct(base.fromPublish, 50)}, p99 ${pct(base.fromPublish, 99)}, max ` +
      `${pct(base.fromPublish, 100)} ms. From the event's own \`at\` (engine created it, before the insert; ms ` +
      `resolution; not sent to clients, which get only seq, type and data): p50 ${pct(lat.fromCreated, 50)}, ` +
      `p99 ${pct(lat.fromCreated, 99)} ms. JetStream publish ack in the engine: p50 ${pct(lat.publishAck, 50)} ` +
      `ms. API event-loop delay from the fan-out debate's start to its last stream's end ${lagOf(during)} (less ` +
      `the 10 ms resolution). CPU s in that window (${(wallMs / 1000).toFixed(2)} s): ${describeCpu(cpu, 'runner (clients)')}` +
      ` — all on one machine with ${cpus().length} CPUs. ${delivery}`;

    const results: BenchResult[] = [
      {
        name: 'debates.sse_fanout.latency_p50_ms',
        value: round(percentile(lat.fromPublish, 50)),
        unit: 'ms',
        better: 'lower',
        detail: latencyDetail,
      },
      {
        name: 'debates.sse_fanout.latency_p99_ms',
        value: round(percentile(lat.fromPublish, 99)),
        unit: 'ms',
        better: 'lower',
        detail: 'See debates.sse_fanout.latency_p50_ms.',
      },
      {
        name: 'debates.sse_single.latency_p50_ms',
        value: round(percentile(base.fromPublish, 50)),
        unit: 'ms',
        better: 'lower',
        detail:
          `Baseline for the fan-out: the same debate shape with ONE SSE client, run just before the fan-out ` +
          `debate on the same API process and engine node (the ${SSE_CLIENTS} fan-out streams already open, ` +
          `idle); engine publish → client receipt over ` +
          `${base.fromPublish.length} events: p50 ${pct(base.fromPublish, 50)}, p99 ${pct(base.fromPublish, 99)}, ` +
          `max ${pct(base.fromPublish, 100)} ms; ${checkAlone.ok ? 'every event in order' : `DELIVERY FAILED: ${checkAlone.problems.join('; ')}`}. ` +
          'See debates.sse_fanout.latency_p50_ms.',
      },
      {
        name: 'debates.sse_fanout.clients',
        value: fleet.connected,
        unit: 'clients',
        better: 'higher',
        detail:
          `${fleet.connected} of ${SSE_CLIENTS} SSE clients connected (200 text/event-stream) on one debate ` +
          `through one API process in ${fleet.connectMs.toFixed(0)} ms (≤100 handshakes at once; each ` +
          `authenticates with the key, reads the debate and its stored events, then creates its own JetStream ` +
          `consumer: ${streamConsumers} seen)` +
          (fleet.failures.length ? `; failures: ${fleet.failures.slice(0, 3).join(' | ')}` : '') +
          `. ${delivery}`,
      },
      {
        name: 'debates.sse_fanout.memory_per_stream_kb',
        value: round(kib(heapDelta) / fleet.connected, 1),
        unit: 'KiB',
        better: 'lower',
        detail:
          `API process (--expose-gc) heapUsed after gc(), reported over IPC: ${mib(before.memory.heapUsed)} MiB ` +
          `with the debates created and one stream open, ${mib(open.memory.heapUsed)} MiB with ${fleet.connected} ` +
          `more streams open and subscribed, before the debate starts; value = heap delta / streams. RSS ` +
          `${mib(before.memory.rss)} → ${mib(open.memory.rss)} MiB, delta ${mib(rssDelta)} MiB = ` +
          `${(kib(rssDelta) / fleet.connected).toFixed(1)} KiB per stream (RSS also keeps what the connection ` +
          `burst allocated and gc freed); external (buffers) delta ${mib(externalDelta)} MiB. Includes the socket, ` +
          `request/response objects, the SSE writer, the keep-alive timer and the per-stream NATS JetStream ` +
          `consumer.`,
      },
      {
        name: 'debates.sse_fanout.delivery_complete',
        value: check.ok ? 1 : 0,
        unit: 'bool',
        better: 'higher',
        detail: delivery,
      },
    ];
    if (!check.ok || !checkAlone.ok) {
      // Loud: latencies of an incomplete delivery mean nothing; the run stops here.
      throw new Error(`SSE delivery incomplete: ${[...check.problems, ...checkAlone.problems].join('; ')}`);
    }
    return results;
  } finally {
    for (const fleet of fleets) fleet.close();
    await engine?.stop();
    if (api) await api.stop();
    else await dropDeployment(d);
    await nc.close().catch(() => {});
  }
}

async function run({ settings, log }: SuiteContext): Promise<BenchResult[]> {
  const results = await createThroughput(settings, log);
  results.push(...(await sseFanout(settings, log)));
  return results;
}

export const suite: Suite = {
  description:
    'debates in distributed mode: POST /api/debates throughput, SSE fan-out of one debate to 1,000 clients',
  run,
};
