import { randomBytes } from 'node:crypto';
import { jetstreamManager } from '@nats-io/jetstream';
import type { DebateEventBody } from '@verdict/contracts';
import { type Database, type DebateJob, type JobQueue, type NatsBus, natsBus } from '@verdict/core';
import {
  createTestCore,
  insertPendingDebate,
  type PendingDebate,
  type TestCore,
} from '@verdict/core/testing';
import { type SimulatedOptions, seatPanel, simulatedProvider, startDebate } from '@verdict/engine';
import { processCpuSeconds } from '../lib/cpu.ts';
import type { StepReport } from '../lib/engine-node-child.ts';
import { type EngineNodeHost, startEngineNodeHost } from '../lib/engine-node-host.ts';
import { pgTransactionsCommitted } from '../lib/pg-transactions.ts';
import { type BenchResult, round } from '../lib/results.ts';
import { serviceCpuSeconds } from '../lib/service-cpu.ts';
import { BENCH_NATS_URL } from '../lib/services.ts';
import type { Suite, SuiteContext } from '../lib/suite.ts';

/**
 * The debate engine (packages/engine) on the simulated provider: how close one debate comes to
 * its critical path, and how many debates one engine node holds at once before its event loop lags.
 * The node runs in a child process (bench/lib/engine-node-child.ts, --expose-gc) on PostgreSQL + NATS
 * JetStream; this process plays the API: it inserts the debate rows and publishes the jobs.
 */
const AGENTS = 3;
const ROUNDS = 2;
const PANEL_MODELS = ['simulated/sonnet', 'simulated/haiku'];
const JUDGE_MODEL = 'simulated/opus';

/** Fixed per-call latency, nothing streamed: the critical path is (rounds + judge) × latency. */
const FIXED: SimulatedOptions = { firstTokenMs: 200, tokensPerSecond: 0 };
const CRITICAL_PATH_MS = (ROUNDS + 1) * (FIXED.firstTokenMs ?? 0);
const RUNS = 5;

/**
 * Realistic latency for the capacity steps: each call takes ~500 ms, its answer at once. (Earlier runs named
 * 50 tok/s here, which the simulated model then ignored; it now paces answers, so 0 keeps the figures
 * comparable.)
 */
const REALISTIC: SimulatedOptions = { firstTokenMs: 500, tokensPerSecond: 0 };
const CAPACITY_PATH_MS = (ROUNDS + 1) * (REALISTIC.firstTokenMs ?? 0);
const STEPS = [50, 100, 200, 400, 800, 1600, 3200];
const HEAP_N = 200;
/**
 * The heap step's model answers slower: all HEAP_N debates must be in flight at once for its samples, and a
 * node that starts them a turn of the event loop each can finish its first before its last starts at 500 ms.
 */
const HEAP_MODEL: SimulatedOptions = { firstTokenMs: 2000, tokensPerSecond: 0 };
const LAG_RESOLUTION_MS = 10;
const LAG_LIMIT_MS = 50;
/** The whole suite stays under ~90 s: no capacity step starts that could not finish inside this. */
const BUDGET_MS = 85_000;

const now = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const median = (values: number[]) => {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] ?? 0) : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2;
};
const list = (values: number[]) => values.map((v) => Math.round(v)).join(', ');

function newDebate(ownerId: string, i: number): PendingDebate {
  return {
    ownerId,
    question: `Should we move service #${i} to the new region this quarter?`,
    context: null,
    mode: 'fast',
    agents: AGENTS,
    rounds: ROUNDS,
    preset: null,
    routing: null,
    fundingSource: 'user_credits',
  };
}

async function mapLimit<T>(count: number, limit: number, task: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = new Array(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      out[i] = await task(i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, count) }, worker));
  return out;
}

/** (a) The actor alone: startDebate with emit into an array, no storage, no bus. */
async function actorCriticalPath(log: SuiteContext['log']): Promise<BenchResult> {
  const provider = simulatedProvider(FIXED);
  const once = async (i: number) => {
    const events: DebateEventBody[] = [];
    const started = performance.now();
    const running = startDebate(
      {
        debateId: `bench-${i}`,
        question: 'Should we move the service to the new region this quarter?',
        context: null,
        mode: 'fast',
        seats: seatPanel(AGENTS, PANEL_MODELS),
        rounds: ROUNDS,
      },
      { provider, judgeModel: JUDGE_MODEL, emit: (event) => events.push(event) },
    );
    const final = await running.done;
    const ms = performance.now() - started;
    if (final.value !== 'completed') throw new Error(`actor debate ended ${JSON.stringify(final.value)}`);
    return { ms, events: events.length };
  };
  await once(0); // warm-up: module and JIT warm-up are not part of the path
  const runs: number[] = [];
  let events = 0;
  for (let i = 1; i <= RUNS; i++) {
    const r = await once(i);
    runs.push(r.ms);
    events = r.events;
  }
  const ms = median(runs);
  log(`actor: median ${ms.toFixed(1)} ms over ${RUNS} runs (critical path ${CRITICAL_PATH_MS} ms)`);
  return {
    name: 'engine.debate.critical_path_ratio',
    value: round(ms / CRITICAL_PATH_MS, 3),
    unit: 'ratio',
    better: 'lower',
    detail:
      `startDebate alone (XState actor + Effect, emit into an array, no storage or bus), ${AGENTS} agents × ` +
      `${ROUNDS} rounds, simulated provider at ${FIXED.firstTokenMs} ms per call, nothing streamed; median ` +
      `wall of ${RUNS} runs after 1 warm-up = ${ms.toFixed(1)} ms (runs: ${runs.map((r) => r.toFixed(1)).join(', ')} ms) ` +
      `/ critical path ${ROUNDS} rounds × ${FIXED.firstTokenMs} + judge ${FIXED.firstTokenMs} = ` +
      `${CRITICAL_PATH_MS} ms; ${events} events per debate. Target ≤ 1.05.`,
  };
}

type Env = {
  test: TestCore;
  databaseUrl: string;
  ownerId: string;
  host: EngineNodeHost;
  log: SuiteContext['log'];
};

/** A bus on a fresh prefix for one step (its own job stream and consumer), dropped afterwards. */
async function withStepBus<T>(body: (bus: NatsBus, prefix: string) => Promise<T>): Promise<T> {
  const prefix = `bench_engine_${randomBytes(4).toString('hex')}.`;
  const bus = await natsBus({ servers: [BENCH_NATS_URL], prefix, name: 'bench-engine-runner' });
  try {
    return await body(bus, prefix);
  } finally {
    await bus.deleteStreams().catch(() => {});
    await bus.close().catch(() => {});
  }
}

/**
 * Waits until the node's slots have their pull requests waiting at the server: it is ready for jobs. The
 * server holds at most the consumer's max_waiting pull requests (512 by default), so a node with more
 * slots than that is ready once max_waiting are pulling; returns how many are.
 */
async function waitForSlots(bus: NatsBus, prefix: string, slots: number, timeoutMs = 20_000) {
  const jsm = await jetstreamManager(bus.connection);
  const stream = await jsm.streams.find(`${prefix}debate.jobs`);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const info = await jsm.consumers.info(stream, 'engine');
    const maxWaiting = info.config.max_waiting ?? slots;
    if (info.num_waiting >= Math.min(slots, maxWaiting)) return { pulling: info.num_waiting, maxWaiting };
    if (Date.now() > deadline) throw new Error(`only ${info.num_waiting} of ${slots} slots pulling`);
    await sleep(50);
  }
}

/** (b) One debate at a time through the node: insertAndEnqueue → the row reads completed. */
async function nodeCriticalPath(env: Env): Promise<BenchResult> {
  return withStepBus(async (bus, prefix) => {
    const records = { db: env.test.core.db, bus: { jobs: bus.jobs } };
    const runs = RUNS + 1;
    await env.host.start({ prefix, slots: 4, expect: runs, simulated: FIXED });
    await waitForSlots(bus, prefix, 4);
    await env.host.go();
    const done = env.host.done(60_000);
    const rows: number[] = [];
    const events: number[] = [];
    const parts: Record<Segment, number[]> = {
      queue: [],
      round1: [],
      round2: [],
      judge: [],
      tail: [],
      seen: [],
    };
    for (let i = 0; i < runs; i++) {
      const r = await oneThroughNode(env.test.core.db, bus, records, env.ownerId, i);
      if (i === 0) continue; // warm-up
      rows.push(r.rowMs);
      events.push(r.eventMs);
      for (const [k, v] of Object.entries(r.segments)) parts[k as Segment].push(v);
    }
    const segments = (Object.keys(parts) as Segment[])
      .map((k) => `${k} ${median(parts[k]).toFixed(0)}`)
      .join(', ');
    const report = await done;
    await env.host.stop();
    const ms = median(rows);
    env.log(
      `node: median ${ms.toFixed(1)} ms to the completed row (debate.completed at ${median(events).toFixed(1)} ms)`,
    );
    return {
      name: 'engine.node.debate_critical_path_ratio',
      value: round(ms / CRITICAL_PATH_MS, 3),
      unit: 'ratio',
      better: 'lower',
      detail:
        `One debate at a time through an engine node (own process, slots 4) on PostgreSQL + NATS JetStream, ` +
        `${AGENTS} agents × ${ROUNDS} rounds, simulated provider at ${FIXED.firstTokenMs} ms per call: from ` +
        `insertAndEnqueue (row insert + job publish) to the debate row reading status completed (polled every 2 ms ` +
        `by this process). Median of ${RUNS} after 1 warm-up = ${ms.toFixed(1)} ms (runs: ${list(rows)} ms) / ` +
        `critical path ${CRITICAL_PATH_MS} ms. debate.completed reached a bus subscriber here at median ` +
        `${median(events).toFixed(1)} ms (runs: ${list(events)}). Median ms by segment, from stored event and row ` +
        `times (ms resolution): ${segments} — queue = insertAndEnqueue start → debate.started (row insert, job ` +
        `publish and delivery, find, status update, command subscription); round1/round2/judge = round.started → ` +
        `next round.started / synthesis.started → debate.completed (${FIXED.firstTokenMs} ms of simulated latency ` +
        `each, plus the awaited turn inserts); tail = debate.completed → row completed_at (event log flush, final ` +
        `update); seen = completed_at → this process's poll saw it. Node's own start→end per debate p50 ` +
        `${report.debateMs.p50} ms. Target ≤ 1.05.`,
    };
  });
}

type Segment = 'queue' | 'round1' | 'round2' | 'judge' | 'tail' | 'seen';

async function oneThroughNode(
  db: Database,
  bus: NatsBus,
  records: { db: Database; bus: { jobs: JobQueue } },
  ownerId: string,
  i: number,
): Promise<{ rowMs: number; eventMs: number; segments: Record<Segment, number> }> {
  const startedEpoch = Date.now();
  const started = performance.now();
  const debate = await insertPendingDebate(records, newDebate(ownerId, i));
  let eventMs = Number.NaN;
  const stopFollowing = await bus.events.follow(debate.id, 1, 0, (event) => {
    if (event.type === 'debate.completed' || event.type === 'debate.failed') {
      eventMs = performance.now() - started;
    }
  });
  let rowMs = 0;
  let seenEpoch = 0;
  try {
    const deadline = started + 30_000;
    for (;;) {
      const [row] = await db.execute<{ status: string }>('select status from debates where id = ?', [
        debate.id,
      ]);
      if (row?.status === 'completed') {
        rowMs = performance.now() - started;
        seenEpoch = Date.now();
        break;
      }
      if (row?.status === 'failed') throw new Error(`debate ${debate.id} failed`);
      if (performance.now() > deadline) throw new Error(`debate ${debate.id} not completed in 30 s`);
      await sleep(2);
    }
    // The end's events are published once the statement storing them (and the row) committed: the row can
    // read completed a moment before the event arrives.
    const eventDeadline = performance.now() + 2_000;
    while (Number.isNaN(eventMs) && performance.now() < eventDeadline) await sleep(2);
  } finally {
    stopFollowing();
  }
  const epoch = (sql: string) =>
    db.execute<{ type: string; round: string | null; at: string }>(sql, [debate.id]);
  const stored = await epoch(
    `select type, data->>'round' as round, (extract(epoch from created_at) * 1000)::float8 as at
       from debate_events where debate_id = ? order by seq`,
  );
  const [row] = await epoch(
    `select 'row' as type, null as round, (extract(epoch from completed_at) * 1000)::float8 as at
       from debates where id = ?`,
  );
  const at = (type: string, round?: string) =>
    Number(stored.find((e) => e.type === type && (round === undefined || e.round === round))?.at);
  const completedAt = Number(row?.at);
  return {
    rowMs,
    eventMs,
    segments: {
      queue: at('debate.started') - startedEpoch,
      round1: at('round.started', '2') - at('round.started', '1'),
      round2: at('synthesis.started') - at('round.started', '2'),
      judge: at('debate.completed') - at('synthesis.started'),
      tail: completedAt - at('debate.completed'),
      seen: seenEpoch - completedAt,
    },
  };
}

type StepResult = {
  n: number;
  report: StepReport;
  /** Lag as the excess over the monitor's 10 ms resolution (what the histogram records minus 10 ms). */
  lagP99Ms: number;
  wallMs: number;
  publishMs: number;
  insertMs: number;
  /** Pull requests waiting at the server before the jobs went out, and the consumer's cap on them. */
  pulling: { pulling: number; maxWaiting: number };
  heapIdleBytes: number;
  cpu: { node: number; postgres: number; nats: number; runner: number };
  /** PostgreSQL transactions committed in the step's window (the whole database's), or null. */
  transactions: number | null;
  ok: boolean;
  why: string;
};

/**
 * N debates at once on a node with N slots: rows inserted first (not measured), the node started and
 * its N pull requests waiting, then the N jobs published in one burst; measured until every debate ended.
 */
async function capacityStep(
  env: Env,
  n: number,
  options: { timeoutMs: number; heapSampleMs?: number; simulated?: SimulatedOptions },
): Promise<StepResult> {
  return withStepBus(async (bus, prefix) => {
    const jobs: DebateJob[] = [];
    const collecting: JobQueue = {
      enqueue: async (job) => {
        jobs.push(job);
      },
      consume: () => {
        throw new Error('not a consumer');
      },
      waiting: async () => 0,
    };
    const collect = { db: env.test.core.db, bus: { jobs: collecting } };
    const insertStarted = now();
    await mapLimit(n, 16, (i) => insertPendingDebate(collect, newDebate(env.ownerId, i)));
    const insertMs = now() - insertStarted;
    await env.host.start({
      prefix,
      slots: n,
      expect: n,
      simulated: options.simulated ?? REALISTIC,
      ...(options.heapSampleMs ? { heapSampleMs: options.heapSampleMs } : {}),
    });
    const pulling = await waitForSlots(bus, prefix, n);
    await sleep(200); // let the slots' set-up settle before the window opens
    const { heapIdleBytes } = await env.host.go();
    const done = env.host.done(options.timeoutMs);
    const xact0 = pgTransactionsCommitted(env.databaseUrl);
    const cpu0 = cpuNow(env.host.pid);
    const t0 = now();
    await Promise.all(jobs.map((job) => bus.jobs.enqueue(job)));
    const publishMs = now() - t0;
    // On a timeout the caller kills the node's process: stopping it would wait for its debates.
    const report = await done;
    const cpu1 = cpuNow(env.host.pid);
    const xact1 = pgTransactionsCommitted(env.databaseUrl);
    await env.host.stop();
    const lagP99Ms = Math.max(0, report.lagRawMs.p99 - LAG_RESOLUTION_MS);
    const problems: string[] = [];
    if (report.completed !== n) {
      problems.push(
        `${report.completed}/${n} completed, ${report.failed} failed, ${report.interrupted} retried`,
      );
    }
    if (report.peakActive < n) problems.push(`only ${report.peakActive} held at once`);
    if (lagP99Ms >= LAG_LIMIT_MS) problems.push(`lag p99 ${lagP99Ms.toFixed(1)} ms ≥ ${LAG_LIMIT_MS}`);
    return {
      n,
      report,
      lagP99Ms,
      wallMs: report.lastEndAt - t0,
      publishMs,
      insertMs,
      pulling,
      heapIdleBytes,
      cpu: {
        node: cpu1.node - cpu0.node,
        postgres: cpu1.postgres - cpu0.postgres,
        nats: cpu1.nats - cpu0.nats,
        runner: cpu1.runner - cpu0.runner,
      },
      transactions: xact0 === null || xact1 === null ? null : xact1 - xact0,
      ok: problems.length === 0,
      why: problems.join('; '),
    };
  });
}

function cpuNow(nodePid: number) {
  const self = process.cpuUsage();
  return {
    node: processCpuSeconds(nodePid),
    ...serviceCpuSeconds(),
    runner: (self.user + self.system) / 1e6,
  };
}

const describeStep = (s: StepResult) =>
  `N=${s.n}: ${s.report.completed}/${s.n} completed in ${(s.wallMs / 1000).toFixed(2)} s ` +
  `(${(s.report.completed / (s.wallMs / 1000)).toFixed(1)}/s), held ${s.report.peakActive} at once, ` +
  `lag p99 ${s.lagP99Ms.toFixed(1)} ms (max ${Math.max(0, s.report.lagRawMs.max - LAG_RESOLUTION_MS).toFixed(1)}), ` +
  `debate p50 ${s.report.debateMs.p50} ms / max ${s.report.debateMs.max} ms, ` +
  (s.pulling.pulling < s.n
    ? `only ${s.pulling.pulling} pull requests waiting (max_waiting ${s.pulling.maxWaiting}), `
    : '') +
  `CPU s node ${s.cpu.node.toFixed(2)} · PostgreSQL ${s.cpu.postgres.toFixed(2)} · NATS ${s.cpu.nats.toFixed(2)} · runner ${s.cpu.runner.toFixed(2)}, ` +
  `rows inserted beforehand in ${(s.insertMs / 1000).toFixed(1)} s` +
  (s.ok ? '' : ` — FAIL: ${s.why}`);

async function run({ settings, log }: SuiteContext): Promise<BenchResult[]> {
  const suiteStarted = Date.now();
  const results: BenchResult[] = [await actorCriticalPath(log)];

  const test = await createTestCore({ DATABASE_URL: settings.databaseUrl });
  let host: EngineNodeHost | undefined;
  try {
    const ownerId = (
      await test.core.accounts.createUser({ email: 'bench-engine@example.com', name: 'Bench' })
    ).id;
    host = await startEngineNodeHost({
      databaseUrl: settings.databaseUrl,
      schema: test.schema,
      natsUrl: BENCH_NATS_URL,
    });
    const env: Env = { test, databaseUrl: settings.databaseUrl, ownerId, host, log };
    results.push(await nodeCriticalPath(env));

    // Heap: its own run, since gc() calls in flight would show up as event-loop lag.
    const heap = await capacityStep(env, HEAP_N, {
      timeoutMs: 30_000,
      heapSampleMs: 250,
      simulated: HEAP_MODEL,
    });
    const samples = heap.report.heapInFlightBytes;
    if (samples.length === 0) throw new Error(`heap run: no sample with all ${HEAP_N} debates in flight`);
    const peak = Math.max(...samples);
    const kb = (bytes: number) => bytes / 1024;
    log(
      `heap: idle ${(kb(heap.heapIdleBytes) / 1024).toFixed(1)} MiB, in flight ${list(samples.map((b) => kb(b) / 1024))} MiB`,
    );
    results.push({
      name: 'engine.node.heap_per_debate_kb',
      value: round(kb(peak - heap.heapIdleBytes) / HEAP_N, 1),
      unit: 'KiB',
      better: 'lower',
      detail:
        `Engine node in its own process started with --expose-gc, slots ${HEAP_N}, ${HEAP_N} debates of ` +
        `${AGENTS} agents × ${ROUNDS} rounds (simulated ${HEAP_MODEL.firstTokenMs} ms first token, so all are in flight together, ` +
        `answers at once). Baseline: heapUsed after gc() with the node started and its ` +
        `${HEAP_N} pull requests waiting, no debate = ${(kb(heap.heapIdleBytes) / 1024).toFixed(1)} MiB. In flight: ` +
        `gc() + heapUsed every 250 ms while all ${HEAP_N} were active, ${samples.length} samples ` +
        `(${list(samples.map((b) => kb(b) / 1024))} MiB); value = (largest sample − baseline) / ${HEAP_N}. ` +
        `Median sample gives ${(kb(median(samples) - heap.heapIdleBytes) / HEAP_N).toFixed(1)} KiB. ` +
        `Includes the actor, its event log queue, ORM forks and the per-debate NATS command subscription.`,
    });

    // Capacity sweep, inside the remaining budget. After the first failure one step between the last pass
    // and it narrows the figure: at the number the node did hold at once, or else halfway.
    const steps: StepResult[] = [];
    const queue = [...STEPS];
    let refined = false;
    for (let n = queue.shift(); n !== undefined; n = queue.shift()) {
      const elapsed = Date.now() - suiteStarted;
      const remaining = BUDGET_MS - elapsed;
      const last = steps.at(-1);
      // A step's time grows about linearly in N once the node is saturated; skip one that cannot fit.
      const expected = last ? ((last.wallMs + last.insertMs) * n) / last.n + 1500 : 5000;
      if (expected > remaining) {
        log(
          `N=${n} skipped: would take ~${(expected / 1000).toFixed(0)} s, ${(remaining / 1000).toFixed(0)} s left`,
        );
        break;
      }
      let step: StepResult;
      try {
        step = await capacityStep(env, n, { timeoutMs: Math.max(5000, remaining - 2000) });
      } catch (err) {
        log(`N=${n} did not finish: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`);
        await env.host.kill(); // a node stuck mid-step would not stop by itself
        break;
      }
      log(describeStep(step));
      steps.push(step);
      if (step.ok) continue;
      const lastPass = Math.max(0, ...steps.filter((s) => s.ok).map((s) => s.n));
      const held = step.report.peakActive;
      const between = held > lastPass && held < n ? held : Math.round((lastPass + n) / 2);
      if (refined || between <= lastPass || between >= n) break;
      refined = true;
      queue.splice(0, queue.length, between);
    }
    const passed = steps.filter((s) => s.ok).sort((a, b) => a.n - b.n);
    const best = passed.at(-1);
    const firstFail = steps.filter((s) => !s.ok).sort((a, b) => a.n - b.n)[0];
    const tried = steps.map(describeStep).join(' | ');
    const capped = steps.find((s) => s.pulling.pulling < s.n);
    const method =
      `One engine node in its own process (bench/lib/engine-node-child.ts) on PostgreSQL + NATS JetStream ` +
      `(fresh schema and stream prefix, dropped afterwards; PostgreSQL pool default max 10), slots = N; ` +
      `N debates of ${AGENTS} agents × ${ROUNDS} rounds, simulated provider ${REALISTIC.firstTokenMs} ms first ` +
      `token, answers at once (each call is ~${REALISTIC.firstTokenMs} ms, critical path ${CAPACITY_PATH_MS} ms). ` +
      `Rows inserted first by this process; once the node's N pull requests wait, the N jobs are published at ` +
      `once and the node measured until every debate is stored and acked. Lag = monitorEventLoopDelay ` +
      `(resolution ${LAG_RESOLUTION_MS} ms) in the node's process, p99 minus the ${LAG_RESOLUTION_MS} ms ` +
      `resolution the histogram includes; the node's own PostgreSQL driver, ORM and NATS client work counts ` +
      `(it is the node), while the runner's inserts and publishes are in another process. PostgreSQL, NATS and ` +
      `the runner share the machine's CPUs with the node (their CPU seconds per step are listed below). Pass: all completed, all N held at once, lag p99 < ${LAG_LIMIT_MS} ms. ` +
      `N steps ${STEPS.join(', ')}, stopping at the first failure (then one step between the last pass and ` +
      `it: the number held at once, else halfway) or at the suite's ${BUDGET_MS / 1000} s budget.`;
    const at = best ? `at N=${best.n}` : 'no step passed';
    results.push(
      {
        name: 'engine.node.max_simultaneous_debates',
        value: best?.n ?? 0,
        unit: 'debates',
        better: 'higher',
        detail:
          `${method} Largest passing N = ${best?.n ?? 0}` +
          (firstFail ? `; smallest failing N = ${firstFail.n} (${firstFail.why})` : '; no step failed') +
          (best
            ? `. At N=${best.n} each debate took p50 ${best.report.debateMs.p50} ms = ` +
              `${(best.report.debateMs.p50 / CAPACITY_PATH_MS).toFixed(1)}× its ${CAPACITY_PATH_MS} ms critical ` +
              `path, the node used ${best.cpu.node.toFixed(2)} CPU s in ${(best.wallMs / 1000).toFixed(2)} s ` +
              `(${((best.cpu.node / best.report.completed) * 1000).toFixed(1)} ms per debate)`
            : '') +
          (capped
            ? `. The jobs consumer's max_waiting (${capped.pulling.maxWaiting}, the NATS default; natsBus does ` +
              `not set it) caps the pull requests waiting at the server, so slots beyond it stay idle`
            : '') +
          `. Steps: ${tried}`,
      },
      {
        name: 'engine.node.lag_p99_ms_at_max',
        value: round(best?.lagP99Ms ?? 0, 1),
        unit: 'ms',
        better: 'lower',
        detail: best
          ? `Event-loop lag p99 of the node ${at} (raw histogram p99 ${best.report.lagRawMs.p99.toFixed(1)} ms ` +
            `incl. the ${LAG_RESOLUTION_MS} ms resolution, mean ${best.report.lagRawMs.mean.toFixed(1)}, ` +
            `max ${best.report.lagRawMs.max.toFixed(1)}, ${best.report.lagRawMs.count} samples). See max_simultaneous_debates.`
          : `${at}. See max_simultaneous_debates.`,
      },
      {
        name: 'engine.node.debates_per_second_at_max',
        value: best ? round(best.report.completed / (best.wallMs / 1000), 1) : 0,
        unit: 'debates/s',
        better: 'higher',
        detail: best
          ? `${at}: ${best.report.completed} debates completed / ${(best.wallMs / 1000).toFixed(2)} s from the ` +
            `first job published to the last debate stored and acked (jobs published in ` +
            `${best.publishMs.toFixed(0)} ms). Each debate's own time: p50 ${best.report.debateMs.p50} ms, ` +
            `max ${best.report.debateMs.max} ms (critical path ${CAPACITY_PATH_MS} ms). ` +
            `CPU seconds in the window: node ${best.cpu.node.toFixed(2)}, PostgreSQL ${best.cpu.postgres.toFixed(2)}, ` +
            `NATS ${best.cpu.nats.toFixed(2)}, runner ${best.cpu.runner.toFixed(2)}.`
          : `${at}. See max_simultaneous_debates.`,
      },
      {
        name: 'engine.node.cpu_ms_per_debate',
        value: best ? round(cpuPerDebateMs(best), 2) : 0,
        unit: 'ms',
        better: 'lower',
        detail: best
          ? `${at}: CPU of the node, PostgreSQL and NATS in the step's window (the runner's excluded) ÷ ` +
            `${best.report.completed} debates: node ${((best.cpu.node / best.report.completed) * 1000).toFixed(2)}, ` +
            `PostgreSQL ${((best.cpu.postgres / best.report.completed) * 1000).toFixed(2)}, ` +
            `NATS ${((best.cpu.nats / best.report.completed) * 1000).toFixed(2)} ms a debate.`
          : `${at}. See max_simultaneous_debates.`,
      },
      ...cpuSplitRows(steps),
    );
    return results;
  } finally {
    await host?.close().catch(() => {});
    await dropWithRetry(test);
  }
}

/** A killed node's queries may still hold locks for a moment; DROP SCHEMA is retried. */
async function dropWithRetry(test: TestCore) {
  for (let attempt = 1; ; attempt++) {
    try {
      await test.cleanup();
      return;
    } catch (err) {
      if (attempt >= 5) throw err;
      await sleep(300 * attempt);
    }
  }
}

export const suite: Suite = {
  description: 'debate engine: critical path of one debate, simultaneous debates per node, heap per debate',
  run,
};

/** What a debate cost in all at a step: the node's, PostgreSQL's and NATS's CPU in its window, per debate. */
function cpuPerDebateMs(step: StepResult): number {
  const { node, postgres, nats } = step.cpu;
  return ((node + postgres + nats) / step.report.completed) * 1000;
}

/**
 * Each side's CPU a debate at the largest step whose debates all completed (lag aside): the most debates,
 * so the steadiest split; docs/capacity.md's model reads these.
 */
function cpuSplitRows(steps: StepResult[]): BenchResult[] {
  const step = steps.filter((s) => s.report.completed === s.n).sort((a, b) => b.n - a.n)[0];
  if (!step) return [];
  const parts = [
    ['node', step.cpu.node],
    ['postgres', step.cpu.postgres],
    ['nats', step.cpu.nats],
  ] as const;
  const rows = parts.map(([side, seconds]) => ({
    name: `engine.node.${side}_cpu_ms_per_debate`,
    value: round((seconds / step.n) * 1000, 2),
    unit: 'ms',
    better: 'lower' as const,
    detail:
      `${side} CPU in the window of the step N=${step.n} (the largest whose debates all completed) ÷ ${step.n} ` +
      `debates of ${AGENTS} agents × ${ROUNDS} rounds; only the benches' own PostgreSQL and NATS servers are ` +
      `counted. The step: ${describeStep(step)}`,
  }));
  if (step.transactions === null) return rows;
  return [
    ...rows,
    {
      name: 'engine.node.pg_transactions_per_debate',
      value: round(step.transactions / step.n, 2),
      unit: 'transactions',
      better: 'lower',
      detail:
        `pg_stat_database.xact_commit over the window of the step N=${step.n} ÷ ${step.n} debates: the node's ` +
        'statements outside a transaction and its transactions (other clients of the database count too). ' +
        `The step: ${describeStep(step)}`,
    },
  ];
}
