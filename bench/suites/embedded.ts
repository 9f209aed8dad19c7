import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BenchResult, round } from '../lib/results.ts';
import { spawnServer } from '../lib/spawn-server.ts';
import type { Suite, SuiteContext } from '../lib/suite.ts';

/**
 * The embedded default under its own load: what `npm start` runs (the API, an in-process engine node on the
 * simulated model and PGlite, one event loop) answering a simple read while accounts create debates.
 *  1. Idle: one client reads GET /v1/me one request at a time (20 ms apart) for PROBE_S seconds.
 *  2. Loaded: ACCOUNTS accounts each POST /api/debates (fast mode, distinct questions) CREATES_PER_ACCOUNT_S
 *     times a second on a fixed schedule (open loop: a slow answer does not slow the next create), the engine
 *     running them; after LOAD_WARMUP_S the same reader, with its own account, for PROBE_S seconds.
 * The figure is the loaded p99 over the idle p99 of the same process.
 */

const ACCOUNTS = 20;
const CREATES_PER_ACCOUNT_S = 1.2;
const PROBE_S = Number(process.env.BENCH_EMBEDDED_PROBE_S ?? 15);
const LOAD_WARMUP_S = 3;
const PROBE_GAP_MS = 20;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return (
    sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN
  );
}

/** GET /v1/me one at a time for `seconds`: each latency in ms, and any answer that was not a 200. */
async function probe(baseUrl: string, key: string, seconds: number) {
  const latencies: number[] = [];
  const failures: string[] = [];
  const until = performance.now() + seconds * 1000;
  while (performance.now() < until) {
    const started = performance.now();
    const res = await fetch(`${baseUrl}/v1/me`, { headers: { authorization: `Bearer ${key}` } });
    await res.arrayBuffer();
    latencies.push(performance.now() - started);
    if (res.status !== 200) failures.push(`GET /v1/me answered ${res.status}`);
    await sleep(PROBE_GAP_MS);
  }
  return { latencies: latencies.sort((a, b) => a - b), failures };
}

/** How many of `debates` reach `completed` within `seconds` (each read until it has, or time is up). */
async function completedWithin(baseUrl: string, debates: { id: string; key: string }[], seconds: number) {
  const until = performance.now() + seconds * 1000;
  const open = new Set(debates);
  while (open.size > 0 && performance.now() < until) {
    for (const debate of [...open]) {
      const res = await fetch(`${baseUrl}/api/debates/${debate.id}`, {
        headers: { authorization: `Bearer ${debate.key}` },
      });
      const body = (await res.json()) as { status?: string };
      if (body.status === 'completed') open.delete(debate);
    }
    if (open.size > 0) await sleep(500);
  }
  return debates.length - open.size;
}

/** Each account's creates on a fixed schedule until `stop()`; counts the answers by status. */
function createLoad(baseUrl: string, keys: string[]) {
  const statuses = new Map<number, number>();
  const created: { id: string; key: string }[] = [];
  const inFlight = new Set<Promise<void>>();
  let n = 0;
  const started = performance.now();
  const timers = keys.map((key, i) => {
    const create = () => {
      const sent = (async () => {
        const res = await fetch(`${baseUrl}/api/debates`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ question: `Should team ${i} ship release ${n++} this week?`, mode: 'fast' }),
        }).catch(() => null);
        const body = (await res?.json().catch(() => null)) as { debateId?: string } | null;
        const status = res?.status ?? 0;
        if (status === 201 && body?.debateId) created.push({ id: body.debateId, key });
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      })();
      inFlight.add(sent);
      void sent.finally(() => inFlight.delete(sent));
    };
    // Staggered across the period, so the accounts' creates do not arrive together.
    const period = 1000 / CREATES_PER_ACCOUNT_S;
    let interval: NodeJS.Timeout | undefined;
    const first = setTimeout(
      () => {
        create();
        interval = setInterval(create, period);
      },
      (period * i) / keys.length,
    );
    return () => {
      clearTimeout(first);
      clearInterval(interval);
    };
  });
  return {
    statuses,
    created,
    stop: async () => {
      for (const clear of timers) clear();
      const seconds = (performance.now() - started) / 1000;
      await Promise.all(inFlight);
      return seconds;
    },
  };
}

async function run({ log }: SuiteContext): Promise<BenchResult[]> {
  const dataDir = await mkdtemp(join(tmpdir(), 'verdict-bench-embedded-'));
  try {
    const server = await spawnServer<{ port: number; keys: string[] }>(
      join(import.meta.dirname, '..', 'servers', 'embedded-api-server.ts'),
      {
        // Fast debates take ~1.5 s on the simulated model: up to two of an account's at once, never refused.
        env: { DATA_DIR: dataDir, BENCH_USERS: String(ACCOUNTS + 1), CONCURRENT_DEBATES: '20' },
        unset: ['DATABASE_URL', 'DATABASE_SCHEMA', 'NATS_URL', 'PORT', 'HOST'],
        readyTimeoutMs: 120_000,
        execArgv: process.env.BENCH_EMBEDDED_PROF
          ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_EMBEDDED_PROF}`]
          : [],
      },
    );
    const baseUrl = `http://127.0.0.1:${server.info.port}`;
    const [reader, ...creators] = server.info.keys as [string, ...string[]];
    try {
      await probe(baseUrl, reader, 2);
      const idle = await probe(baseUrl, reader, PROBE_S);
      log(
        `idle: /v1/me p50 ${percentile(idle.latencies, 50).toFixed(1)} ms, p99 ${percentile(idle.latencies, 99).toFixed(1)} ms`,
      );
      const load = createLoad(baseUrl, creators);
      await sleep(LOAD_WARMUP_S * 1000);
      const loaded = await probe(baseUrl, reader, PROBE_S);
      const seconds = await load.stop();
      const created = load.statuses.get(201) ?? 0;
      const others = [...load.statuses].filter(([status]) => status !== 201);
      const idleP99 = percentile(idle.latencies, 99);
      const loadedP99 = percentile(loaded.latencies, 99);
      // The load is real only if the engine ran it: every debate created must complete.
      const completed = await completedWithin(baseUrl, load.created, 60);
      const failures = [...idle.failures, ...loaded.failures];
      if (completed < load.created.length) {
        failures.push(
          `${load.created.length - completed} of ${load.created.length} debates not completed 60 s on`,
        );
      }
      const detail =
        `the embedded default (API, in-process engine node on the simulated model, PGlite; one process): ` +
        `GET /v1/me one at a time ${PROBE_GAP_MS} ms apart for ${PROBE_S} s, idle (${idle.latencies.length} ` +
        `reads, p50 ${percentile(idle.latencies, 50).toFixed(1)} ms) and while ${creators.length} accounts ` +
        `create fast debates ${CREATES_PER_ACCOUNT_S}/s each (${loaded.latencies.length} reads, p50 ` +
        `${percentile(loaded.latencies, 50).toFixed(1)} ms, max ${(loaded.latencies.at(-1) ?? 0).toFixed(0)} ms); ` +
        `${created} creates answered 201 in ${seconds.toFixed(1)} s (${(created / seconds).toFixed(1)}/s), ` +
        `${completed} of them completed` +
        (others.length ? `, others: ${others.map(([s, c]) => `${c}× ${s}`).join(', ')}` : '') +
        (failures.length ? `; FAILED: ${failures.join(', ')}` : '');
      log(`loaded: /v1/me p99 ${loadedP99.toFixed(1)} ms; ${detail}`);
      if (failures.length) throw new Error(`embedded under load: ${detail}`);
      return [
        { name: 'embedded.v1_me_idle.p99_ms', value: round(idleP99, 1), unit: 'ms', better: 'lower', detail },
        {
          name: 'embedded.v1_me_under_load.p99_ms',
          value: round(loadedP99, 1),
          unit: 'ms',
          better: 'lower',
          detail,
        },
        {
          name: 'embedded.v1_me_under_load.p99_ratio_to_idle',
          value: round(loadedP99 / idleP99, 1),
          unit: 'x',
          better: 'lower',
          detail,
        },
        {
          name: 'embedded.creates_per_s',
          value: round(created / seconds, 1),
          unit: 'req/s',
          better: 'higher',
          detail,
        },
      ];
    } finally {
      await server.stop();
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

export const suite: Suite = {
  description: 'the embedded default: GET /v1/me while accounts create debates, over its idle p99',
  run,
};
