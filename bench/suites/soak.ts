import { cpus } from 'node:os';
import { type Cpu, cpuDelta, cpuNow, describeCpu, machineBusySeconds } from '../lib/cpu.ts';
import { type DebatesApi, dropDeployment, newDeployment, startDebatesApi } from '../lib/debates-servers.ts';
import { type EngineProcess, startEngineProcess } from '../lib/engine-process.ts';
import { processRssBytes } from '../lib/proc-memory.ts';
import { type BenchResult, round } from '../lib/results.ts';
import { ascending, now, percentile } from '../lib/scale-debates.ts';
import { BENCH_NATS_URL } from '../lib/services.ts';
import { closedLoopCapacity, openLoop, untilQuiet } from '../lib/soak-load.ts';
import { type Mix, newRecorder, type Recorder, ROUTES, type Route, startMix } from '../lib/soak-mix.ts';
import type { Suite, SuiteContext } from '../lib/suite.ts';

/**
 * The soak: the real service (the bench API process and the production engine process, distributed mode on
 * the machine's PostgreSQL and NATS, fresh schema and prefix) under a steady mix for SOAK_MINUTES (default
 * 10; fractions allowed, e.g. 0.5 for a quick look). The debaters are the simulated model, the only
 * stand-in. One mix operation (bench/lib/soak-mix.ts): create a debate, read it, list the account's
 * debates, follow its stream to the end (every STREAM_EVERY-th), wait for its debate.completed webhook at a
 * local receiver, record its outcome (one outcome.recorded webhook more).
 *  1. Capacity: a closed loop of the mix stepped up (8, 16, 32, … workers) until the throughput stops rising
 *     or an operation fails: operations completed per second at that point.
 *  2. Soak: open-loop arrivals at LOAD_SHARE of it. Per window (a minute; a quarter of the soak when it is
 *     shorter than 3 minutes): p99 per route, RSS of the API and the engine process (VmRSS, sampled), errors.
 * Targets (bench/lib/targets.ts) are ratios within the run: no error, last window's RSS and p99 over the
 * first's; the timings themselves are reported, not asserted.
 */

/** An environment knob, read when the suite runs (the runner loads every suite, also those it does not run). */
function knob(name: string, fallback: number, integer = false): number {
  const value = Number(process.env[name] || fallback);
  if (!Number.isFinite(value) || value <= 0 || (integer && !Number.isInteger(value)))
    throw new Error(`${name} must be a positive ${integer ? 'integer' : 'number'}`);
  return value;
}
const LOAD_SHARE = 0.7;
const SHAPE = { mode: 'fast', agentCount: 3, maxRounds: 2 } as const;
/** SIMULATED_FIRST_TOKEN_MS's default: each simulated call takes this long. */
const FIRST_TOKEN_MS = 400;
/** ENGINE_SLOTS's default. */
const SLOTS = 50;
const STREAM_EVERY = 2;
/**
 * Accounts the operations take turns on (SOAK_ACCOUNTS), each with its key and webhook: one account would
 * serialize every create on its row lock and make each score refresh read every outcome of the run.
 */
const ACCOUNTS = 20;
const LEVELS = [8, 16, 32, 64, 128, 256];
const SETTLE_MS = 4000;
const MEASURE_MS = 8000;
/** The local receiver is on 127.0.0.2 over http: both processes must be allowed to reach it. */
const WEBHOOK_ENV = { WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE: 'true' };

const mib = (bytes: number) => bytes / 1048576;

/**
 * RSS of each process, the machine's busy CPU seconds so far (all processes, the other sessions' too) and the
 * run's own share of them (API, engine, PostgreSQL, NATS, the runner).
 */
type MemorySample = { at: number; api: number | null; engine: number | null; busy: number; cpu: Cpu };

type Window = {
  from: number;
  p99: Partial<Record<Route, number>>;
  counts: Partial<Record<Route, number>>;
  errors: number;
  rss: { api: number; engine: number };
  /** Cores busy over the window: the service's (API, engine, PostgreSQL, NATS), and the rest but the runner. */
  serviceCores: number;
  otherCores: number;
};

/** Cores the service and everything else but the runner used between two samples. */
function cores(a: MemorySample | undefined, b: MemorySample | undefined) {
  const seconds = a && b ? (b.at - a.at) / 1000 : 0;
  if (!a || !b || seconds <= 0) return { serviceCores: Number.NaN, otherCores: Number.NaN };
  const d = cpuDelta(a.cpu, b.cpu);
  const service = d.api + d.engine + d.postgres + d.nats;
  return { serviceCores: service / seconds, otherCores: (b.busy - a.busy - service - d.runner) / seconds };
}

/** p99, counts, errors and mean RSS of each window of `windowMs` from t0; samples past the last are left out. */
function windows(rec: Recorder, memory: MemorySample[], t0: number, windowMs: number, n: number): Window[] {
  const index = (at: number) => Math.floor((at - t0) / windowMs);
  return Array.from({ length: n }, (_, w) => {
    const p99: Window['p99'] = {};
    const counts: Window['counts'] = {};
    for (const route of ROUTES) {
      const sorted = ascending(
        rec.samples.filter((s) => s.route === route && index(s.at) === w).map((s) => s.ms),
      );
      counts[route] = sorted.length;
      if (sorted.length) p99[route] = percentile(sorted, 99);
    }
    const inWindow = memory.filter((m) => index(m.at) === w);
    const mean = (pick: (m: MemorySample) => number | null) => {
      const values = inWindow.map(pick).filter((v): v is number => v !== null);
      return values.length ? values.reduce((a, b) => a + b, 0) / values.length : Number.NaN;
    };
    return {
      from: (w * windowMs) / 1000,
      p99,
      counts,
      errors: rec.errors.filter((e) => index(e.at) === w).length,
      rss: { api: mean((m) => m.api), engine: mean((m) => m.engine) },
      ...cores(inWindow[0], inWindow.at(-1)),
    };
  });
}

function formatWindows(all: Window[], windowMs: number): string {
  const head = [
    'window (s)',
    'ops',
    ...ROUTES.map((r) => `${r} p99`),
    'API RSS',
    'engine RSS',
    'service cores',
    'other cores',
    'errors',
  ];
  const rows = all.map((w) => [
    `${w.from.toFixed(0)}–${(w.from + windowMs / 1000).toFixed(0)}`,
    String(w.counts.create ?? 0),
    ...ROUTES.map((r) => (w.p99[r] === undefined ? '–' : `${w.p99[r]?.toFixed(0)} ms`)),
    `${mib(w.rss.api).toFixed(0)} MiB`,
    `${mib(w.rss.engine).toFixed(0)} MiB`,
    w.serviceCores.toFixed(2),
    w.otherCores.toFixed(2),
    String(w.errors),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]?.length ?? 0)));
  return [head, ...rows].map((r) => r.map((c, i) => c.padStart(widths[i] ?? 0)).join('  ')).join('\n');
}

async function run({ settings, log }: SuiteContext): Promise<BenchResult[]> {
  const minutes = knob('SOAK_MINUTES', 10);
  const accounts = knob('SOAK_ACCOUNTS', ACCOUNTS, true);
  const soakMs = minutes * 60_000;
  const windowMs = minutes >= 3 ? 60_000 : soakMs / 4;
  const windowCount = Math.round(soakMs / windowMs);
  const d = newDeployment(settings.databaseUrl, BENCH_NATS_URL);
  log(`API + production engine process (schema ${d.schema}), simulated debaters, ${minutes} min soak`);
  let api: DebatesApi | undefined;
  let engine: EngineProcess | undefined;
  let mix: Mix | undefined;
  try {
    // One after the other: the API runs the migrations the engine then finds.
    api = await startDebatesApi(d, { users: accounts, env: WEBHOOK_ENV });
    engine = await startEngineProcess({
      databaseUrl: d.databaseUrl,
      schema: d.schema,
      natsUrl: d.natsUrl,
      prefix: d.prefix,
      slots: SLOTS,
      firstTokenMs: FIRST_TOKEN_MS,
      env: WEBHOOK_ENV,
      label: 'soak',
    });
    mix = await startMix({ baseUrl: api.baseUrl, keys: api.keys }, SHAPE, STREAM_EVERY, d.schema);

    const probe = newRecorder('capacity');
    const current = mix;
    const { capacity, steps } = await closedLoopCapacity((n) => current.operation(probe, n), {
      levels: LEVELS,
      settleMs: SETTLE_MS,
      measureMs: MEASURE_MS,
      log,
    });
    await mix.settleDeliveries(probe, 10_000);
    const stepsText = steps
      .map((s) => `${s.workers} workers ${s.opsPerS.toFixed(1)}/s${s.failed ? ` (${s.failed} failed)` : ''}`)
      .join(', ');
    log(
      `capacity ${capacity.toFixed(1)} operations/s (${stepsText}); ${probe.errors.length} errors while probing`,
    );
    for (const e of probe.errors.slice(0, 5)) log(`  probe error: ${e.what}`);
    if (capacity <= 0)
      throw new Error(`no capacity measured: ${probe.errors[0]?.what ?? 'no operation completed'}`);
    const pids = { api: api.pid, engine: engine.pid };
    // What the probe left queued (deliveries, score refreshes) is not the soak's to carry.
    const quietMs = await untilQuiet([pids.api, pids.engine], 0.1, 30_000);
    log(`API and engine quiet after ${(quietMs / 1000).toFixed(1)} s`);

    const rate = capacity * LOAD_SHARE;
    log(`soak: ${rate.toFixed(1)} operations/s for ${minutes} min, windows of ${windowMs / 1000} s`);
    const rec = newRecorder('soak');
    const memory: MemorySample[] = [];
    const sampleMemory = () =>
      memory.push({
        at: now(),
        api: processRssBytes(pids.api),
        engine: processRssBytes(pids.engine),
        busy: machineBusySeconds(),
        cpu: cpuNow(pids),
      });
    const sampler = setInterval(sampleMemory, Math.min(10_000, windowMs / 3));
    const cpu0 = { split: cpuNow(pids), all: machineBusySeconds() };
    sampleMemory();
    const { t0, started } = await openLoop((n) => current.operation(rec, n), rate, soakMs);
    clearInterval(sampler);
    const wallS = (now() - t0) / 1000;
    const split = cpuDelta(cpu0.split, cpuNow(pids));
    const busy = machineBusySeconds() - cpu0.all;
    const others = busy - Object.values(split).reduce((a, b) => a + b, 0);
    await mix.settleDeliveries(rec, 30_000);

    const all = windows(rec, memory, t0, windowMs, windowCount);
    const table = formatWindows(all, windowMs);
    log(`per window:\n${table}`);
    for (const e of rec.errors.slice(0, 10)) log(`  error: ${e.what}`);
    const engineTail = engine.tail().trim();
    if (engineTail) log(`engine process stderr / error lines:\n${engineTail}`);

    const first = all[0];
    const last = all.at(-1);
    const ratio = (a: number | undefined, b: number | undefined) =>
      a === undefined || b === undefined || !(b > 0) ? Number.NaN : a / b;
    const what =
      `${minutes} min at ${rate.toFixed(1)} operations/s (${LOAD_SHARE * 100} % of the capacity ` +
      `${capacity.toFixed(1)}/s: closed loop ${stepsText}), ${started} operations started; one operation = ` +
      `POST /api/debates (${SHAPE.mode}, ${SHAPE.agentCount} agents × ${SHAPE.maxRounds} rounds, simulated ` +
      `debaters at ${FIRST_TOKEN_MS} ms a call, the only stand-in), GET it, GET the list, its SSE stream to ` +
      `the end (one operation in ${STREAM_EVERY}), its debate.completed webhook, POST its outcome (an outcome.recorded ` +
      `webhook), the operations taking turns on ${accounts} accounts; one API process and the production engine process (${SLOTS} slots), distributed mode; ` +
      `windows of ${windowMs / 1000} s; CPU s over the ${wallS.toFixed(0)} s of load: ` +
      `${describeCpu(split, 'runner (clients, receiver)')}, anything else on the machine ${others.toFixed(0)}; ` +
      `${(busy / wallS).toFixed(2)} of ${cpus().length} cores busy`;
    log(what);
    const perWindow = (pick: (w: Window) => string) => all.map(pick).join(', ');

    const results: BenchResult[] = [
      {
        name: 'soak.capacity.ops_per_s',
        value: round(capacity, 1),
        unit: 'ops/s',
        better: 'higher',
        detail: `mix operations completed per second, closed loop at the saturation point: ${stepsText}; ${probe.errors.length} errors while probing${probe.errors[0] ? ` (first: ${probe.errors[0].what})` : ''}`,
      },
      {
        name: 'soak.errors',
        value: rec.errors.length,
        unit: 'errors',
        better: 'lower',
        detail:
          `non-2xx answers, failed requests or streams, debates not completed, webhook deliveries missing or ` +
          `repeated, over the soak: per window ${perWindow((w) => String(w.errors))}` +
          (rec.errors.length
            ? `; first: ${rec.errors
                .slice(0, 5)
                .map((e) => e.what)
                .join(' | ')}`
            : '') +
          `. ${what}`,
      },
    ];
    for (const proc of ['api', 'engine'] as const) {
      const values = perWindow((w) => mib(w.rss[proc]).toFixed(1));
      results.push(
        {
          name: `soak.${proc}.rss_mib`,
          value: round(mib(last?.rss[proc] ?? Number.NaN), 1),
          unit: 'MiB',
          better: 'lower',
          detail: `mean VmRSS of the ${proc} process in the last window; per window (MiB): ${values}`,
        },
        {
          name: `soak.${proc}.rss_last_to_first`,
          value: round(ratio(last?.rss[proc], first?.rss[proc]), 3),
          unit: 'x',
          better: 'lower',
          detail: `mean VmRSS of the ${proc} process in the last window / in the first; per window (MiB): ${values}`,
        },
      );
    }
    for (const route of ROUTES) {
      const sorted = ascending(rec.samples.filter((s) => s.route === route).map((s) => s.ms));
      const values = perWindow((w) => (w.p99[route] === undefined ? '–' : w.p99[route].toFixed(1)));
      results.push(
        {
          name: `soak.${route}.p99_ms`,
          value: round(percentile(sorted, 99)),
          unit: 'ms',
          better: 'lower',
          detail: `p99 over the soak, ${sorted.length} samples (p50 ${percentile(sorted, 50).toFixed(1)} ms); per window (ms): ${values}`,
        },
        {
          name: `soak.${route}.p99_last_to_first`,
          value: round(ratio(last?.p99[route], first?.p99[route]), 3),
          unit: 'x',
          better: 'lower',
          detail: `p99 in the last window / in the first; per window (ms): ${values}`,
        },
      );
    }
    return results;
  } finally {
    await engine?.stop();
    if (api) await api.stop();
    else await dropDeployment(d);
    await mix?.close();
  }
}

export const suite: Suite = {
  description: `soak: a steady mix at ${LOAD_SHARE * 100} % of the measured capacity for SOAK_MINUTES (default 10)`,
  optIn: true,
  run,
};
