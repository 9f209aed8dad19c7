import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { describeLoad, type LoadOptions, measure } from '../lib/load.ts';
import { type BenchResult, round } from '../lib/results.ts';
import { BENCH_DATABASE_URL } from '../lib/services.ts';
import { spawnServer } from '../lib/spawn-server.ts';
import type { Suite, SuiteContext } from '../lib/suite.ts';

const LARGE = 10_000;
const SAMPLES = 50;

type Ready = { port: number; keys: { small: string; large: string; fresh: string }; pending: string[] };

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;

async function run({ settings, log }: SuiteContext): Promise<BenchResult[]> {
  const server = await spawnServer<Ready>(
    join(import.meta.dirname, '..', 'servers', 'scores-api-server.ts'),
    {
      env: {
        DATABASE_URL: settings.databaseUrl ?? BENCH_DATABASE_URL,
        DATABASE_SCHEMA: `bench_scores_${randomBytes(5).toString('hex')}`,
        BENCH_LARGE_OUTCOMES: String(LARGE),
        BENCH_PENDING_OUTCOMES: String(SAMPLES),
      },
      unset: ['DATA_DIR', 'NATS_URL', 'PORT', 'HOST'],
      execArgv: [],
    },
  );
  const base = `http://127.0.0.1:${server.info.port}`;
  const results: BenchResult[] = [];
  try {
    for (const [label, outcomes] of [
      ['small', 10],
      ['large', LARGE],
    ] as const) {
      log(`GET /api/scores/me for a user with ${outcomes} resolved outcomes`);
      const options: LoadOptions = {
        url: `${base}/api/scores/me`,
        headers: { authorization: `Bearer ${server.info.keys[label]}` },
        connections: settings.connections,
        durationS: settings.durationS,
        warmupS: settings.warmupS,
      };
      const r = await measure(options);
      const detail = `GET /api/scores/me, ${outcomes} resolved outcomes; ${describeLoad(options, r)}`;
      results.push(
        {
          name: `scores.me_${outcomes}.rps`,
          value: round(r.rps, 0),
          unit: 'req/s',
          better: 'higher',
          detail,
        },
        { name: `scores.me_${outcomes}.p50_ms`, value: round(r.p50Ms), unit: 'ms', better: 'lower', detail },
        { name: `scores.me_${outcomes}.p99_ms`, value: round(r.p99Ms), unit: 'ms', better: 'lower', detail },
      );
    }

    log(`outcome → score: ${SAMPLES} outcomes recorded one at a time, /api/scores/me polled every 10 ms`);
    const auth = { authorization: `Bearer ${server.info.keys.fresh}`, 'content-type': 'application/json' };
    const latencies: number[] = [];
    for (const [i, id] of server.info.pending.entries()) {
      const res = await fetch(`${base}/api/debates/${id}/outcome`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ outcomeStatus: i % 3 === 0 ? 'wrong' : 'correct' }),
      });
      if (res.status !== 200)
        throw new Error(`recording an outcome answered ${res.status}: ${await res.text()}`);
      const recorded = performance.now();
      for (;;) {
        const score = (await (await fetch(`${base}/api/scores/me`, { headers: auth })).json()) as {
          totalResolved: number;
        };
        if (score.totalResolved === i + 1) break;
        if (performance.now() - recorded > 10_000) throw new Error('the score did not follow within 10 s');
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      latencies.push(performance.now() - recorded);
    }
    latencies.sort((a, b) => a - b);
    const detail = `${SAMPLES} outcomes, each from its 200 to the first /api/scores/me counting it (ENGINE_SCORE_INTERVAL_MS 500, jittered ±25 %)`;
    results.push(
      {
        name: 'scores.outcome_to_score.p50_ms',
        value: round(percentile(latencies, 50)),
        unit: 'ms',
        better: 'lower',
        detail,
      },
      {
        name: 'scores.outcome_to_score.p99_ms',
        value: round(percentile(latencies, 99)),
        unit: 'ms',
        better: 'lower',
        detail,
      },
    );
  } finally {
    await server.stop();
  }
  return results;
}

export const suite: Suite = {
  description:
    'decision scores: GET /api/scores/me with 10 and 10,000 resolved outcomes, outcome-to-score latency',
  run,
};
