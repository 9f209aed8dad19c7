import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { describeLoad, type LoadOptions, measure } from '../lib/load.ts';
import { type BenchResult, round } from '../lib/results.ts';
import { BENCH_DATABASE_URL } from '../lib/services.ts';
import { spawnServer } from '../lib/spawn-server.ts';
import type { Suite, SuiteContext } from '../lib/suite.ts';

const TOTAL = 200_000;
const OWN = 10_000;

/** The searches timed, by label: a common word sorted the three ways, and a text that occurs once. */
const SEARCHES: Record<string, Record<string, string>> = {
  common_date: { q: 'lisbon' },
  common_relevance: { q: 'lisbon', sort: 'relevance' },
  common_popularity: { q: 'lisbon', sort: 'popularity' },
  rare: { q: 'ref 4242.' },
};

type Plans = { indexed: Record<string, string>; fallback?: Record<string, string> };
type Ready = { port: number; key: string; trigram: boolean; plans: Record<string, Plans> };

/** "Execution Time: 1.234 ms" of an EXPLAIN ANALYZE, in ms. */
const executionMs = (plan: string) => Number(/Execution Time: ([\d.]+) ms/.exec(plan)?.[1] ?? Number.NaN);

/** A sequential scan of debates: on the indexed path the search must never read the whole table. */
const scansDebates = (plan: string) => /Seq Scan on debates/.test(plan);

async function run({ settings, log }: SuiteContext): Promise<BenchResult[]> {
  log(`seeding ${TOTAL.toLocaleString('en')} debates, ${OWN.toLocaleString('en')} of them the searcher's`);
  const server = await spawnServer<Ready>(
    join(import.meta.dirname, '..', 'servers', 'search-api-server.ts'),
    {
      env: {
        DATABASE_URL: settings.databaseUrl ?? BENCH_DATABASE_URL,
        DATABASE_SCHEMA: `bench_search_${randomBytes(5).toString('hex')}`,
        BENCH_SEARCH_TOTAL: String(TOTAL),
        BENCH_SEARCH_OWN: String(OWN),
        BENCH_SEARCHES: JSON.stringify(SEARCHES),
      },
      unset: ['DATA_DIR', 'NATS_URL', 'PORT', 'HOST'],
      execArgv: [],
    },
  );
  const base = `http://127.0.0.1:${server.info.port}`;
  const results: BenchResult[] = [];
  try {
    log(server.info.trigram ? 'pg_trgm present: trigram indexes built' : 'no pg_trgm: no trigram indexes');
    for (const [label, params] of Object.entries(SEARCHES)) {
      const plans = server.info.plans[label] as Plans;
      for (const [path, byStatement] of Object.entries(plans)) {
        for (const [statement, plan] of Object.entries(byStatement ?? {})) {
          log(`EXPLAIN ANALYZE ${label} ${statement} (${path}):\n${plan}`);
          if (path === 'indexed' && server.info.trigram && scansDebates(plan)) {
            throw new Error(`${label} ${statement} scans the whole debates table on the indexed path`);
          }
          const detail = `EXPLAIN ANALYZE of the ${statement} statement of GET /api/search?${new URLSearchParams(params)}, ${path === 'indexed' ? 'with' : 'without'} the trigram indexes; ${OWN} of ${TOTAL} debates the searcher's`;
          results.push({
            name: `search.${label}.${statement}_${path}_ms`,
            value: round(executionMs(plan)),
            unit: 'ms',
            better: 'lower',
            detail,
          });
        }
      }

      const options: LoadOptions = {
        url: `${base}/api/search?${new URLSearchParams(params)}`,
        headers: { authorization: `Bearer ${server.info.key}` },
        connections: settings.connections,
        durationS: settings.durationS,
        warmupS: settings.warmupS,
      };
      log(`GET ${options.url.slice(base.length)}`);
      const r = await measure(options);
      const detail = `GET /api/search?${new URLSearchParams(params)} by a user with ${OWN} of ${TOTAL} debates; ${describeLoad(options, r)}`;
      results.push(
        { name: `search.${label}.rps`, value: round(r.rps, 0), unit: 'req/s', better: 'higher', detail },
        { name: `search.${label}.p50_ms`, value: round(r.p50Ms), unit: 'ms', better: 'lower', detail },
        { name: `search.${label}.p99_ms`, value: round(r.p99Ms), unit: 'ms', better: 'lower', detail },
      );
    }
  } finally {
    await server.stop();
  }
  return results;
}

export const suite: Suite = {
  description: `search: GET /api/search p50/p99 for a user with ${OWN.toLocaleString('en')} of ${TOTAL.toLocaleString('en')} debates, with EXPLAIN ANALYZE plans`,
  optIn: true,
  run,
};
