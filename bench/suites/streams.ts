import { execFileSync } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { type DebatesApi, newDeployment, startDebatesApi } from '../lib/debates-servers.ts';
import { openSseFleet, type SseFleet } from '../lib/debates-sse.ts';
import { type BenchResult, round } from '../lib/results.ts';
import { BENCH_NATS_URL } from '../lib/services.ts';
import type { Suite, SuiteContext } from '../lib/suite.ts';

/**
 * Idle SSE streams on one API process in distributed mode: STREAMS clients on DEBATES pending debates (no
 * engine runs, so nothing happens but the keep-alives), opened from this process. Measured: the API's heap
 * per open stream (after gc(), over IPC) and the database transactions of the whole database while they
 * idle for IDLE_S, past two of the streams' 15 s keep-alives (each keep-alive also looks at the stored log,
 * once per debate for all its streams).
 */
const STREAMS = 10_000;
const DEBATES = 10;
const IDLE_S = 35;
const BASELINE_S = 20;
/**
 * PostgreSQL's backends report their transaction counts up to 10 s late (PGSTAT_IDLE_INTERVAL): a window
 * opened right after the streams' opens would count some of those.
 */
const STATS_SETTLE_MS = 11_000;

/** Committed transactions of the database `url` names (this query's own included). */
function transactions(url: string): number {
  const out = execFileSync('psql', [
    url,
    '-Atc',
    'select xact_commit from pg_stat_database where datname = current_database()',
  ]);
  return Number(out.toString().trim());
}

async function createPending(api: DebatesApi, index: number): Promise<string> {
  const res = await fetch(`${api.baseUrl}/api/debates`, {
    method: 'POST',
    headers: { authorization: `Bearer ${api.keys[0]}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      question: `Should idle stream group ${index} wait for an engine?`,
      skipCache: true,
    }),
  });
  const body = (await res.json()) as { streamUrl: string };
  if (res.status !== 201)
    throw new Error(`POST /api/debates answered ${res.status}: ${JSON.stringify(body)}`);
  return new URL(body.streamUrl, api.baseUrl).pathname;
}

async function run({ settings, log }: SuiteContext): Promise<BenchResult[]> {
  const d = newDeployment(settings.databaseUrl, BENCH_NATS_URL);
  log(`idle streams: API (schema ${d.schema}), ${STREAMS} streams on ${DEBATES} pending debates`);
  const api = await startDebatesApi(d);
  const fleets: SseFleet[] = [];
  try {
    const auth = { authorization: `Bearer ${api.keys[0]}` };
    const paths = await Promise.all(Array.from({ length: DEBATES }, (_, i) => createPending(api, i)));
    // What the process and the database do anyway (background workers polling, the runner's own queries).
    await sleep(STATS_SETTLE_MS);
    const quietBefore = transactions(settings.databaseUrl);
    await sleep(BASELINE_S * 1000);
    const baseline = ((transactions(settings.databaseUrl) - quietBefore - 1) * 60) / BASELINE_S;
    const before = await api.stats();
    const started = Date.now();
    for (const path of paths)
      fleets.push(await openSseFleet(`${api.baseUrl}${path}`, auth, STREAMS / DEBATES));
    const connected = fleets.reduce((sum, fleet) => sum + fleet.connected, 0);
    const failures = fleets.flatMap((fleet) => fleet.failures);
    log(
      `${connected}/${STREAMS} open in ${Date.now() - started} ms${failures.length ? `; ${failures[0]}` : ''}`,
    );
    if (connected === 0) throw new Error(`no stream connected: ${failures[0]}`);
    await sleep(1000); // the last subscriptions settle
    const open = await api.stats();
    const heapPerStream = (open.memory.heapUsed - before.memory.heapUsed) / connected;

    await sleep(STATS_SETTLE_MS); // the opens' own transactions reach the statistics first
    const xactBefore = transactions(settings.databaseUrl);
    await sleep(IDLE_S * 1000);
    const idleTransactions = transactions(settings.databaseUrl) - xactBefore - 1; // less the second query
    const perMinute = (idleTransactions * 60) / IDLE_S;
    const byStreams = Math.max(0, perMinute - baseline);
    log(
      `idle ${IDLE_S} s: ${idleTransactions} database transactions; heap ${round(heapPerStream / 1024, 1)} KiB a stream`,
    );
    const what = `${connected} SSE streams of one account on ${DEBATES} pending debates (no engine), one API process in distributed mode, opened from the runner's process`;
    return [
      { name: 'streams.idle.open', value: connected, unit: 'streams', better: 'higher', detail: what },
      {
        name: 'streams.idle.heap_per_stream_kb',
        value: round(heapPerStream / 1024, 1),
        unit: 'KiB',
        better: 'lower',
        detail: `API heapUsed after gc() with the streams open minus before, ÷ streams; ${what}`,
      },
      {
        name: 'streams.idle.db_transactions_per_min',
        value: round(byStreams, 1),
        unit: 'tx/min',
        better: 'lower',
        detail:
          `pg_stat_database.xact_commit of the whole database over ${IDLE_S} s of idling (two 15 s keep-alives of ` +
          `every stream), per minute: ${round(perMinute, 1)}, less ${round(baseline, 1)} in ${BASELINE_S} s ` +
          `before the streams opened (the process's background work and anything else on the database); ${what}`,
      },
    ];
  } finally {
    for (const fleet of fleets) fleet.close();
    await api.stop();
  }
}

export const suite: Suite = {
  description: 'idle SSE streams: 10,000 open on one API process, their heap and database traffic',
  run,
};
