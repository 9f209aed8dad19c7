import { expectOk, type RunningApi, startApiServer } from '../lib/api-servers.ts';
import { describeLoad, type LoadOptions } from '../lib/load.ts';
import { measureWithCpu, perRequestUs } from '../lib/measure-cpu.ts';
import { type BenchResult, round } from '../lib/results.ts';
import type { Suite, SuiteContext } from '../lib/suite.ts';

type Variant = { id: string; server: 'database' | 'memory'; path: string; auth: boolean; what: string };

/**
 * Where the time of GET /v1/me goes, by taking pieces away. Each variant reports req/s and the CPU
 * microseconds per request spent in the API process and in PostgreSQL (steadier than req/s on a shared
 * machine). The /bench/* routes exist only in bench/servers/api-server.ts.
 */
const VARIANTS: Variant[] = [
  {
    id: 'v1_health',
    server: 'database',
    path: '/v1/health',
    auth: false,
    what: 'full stack, no auth, no database',
  },
  {
    id: 'v1_me',
    server: 'database',
    path: '/v1/me',
    auth: true,
    what: 'production: 3 round trips, DB counters',
  },
  {
    id: 'v1_me_memory_counters',
    server: 'memory',
    path: '/v1/me',
    auth: true,
    what: 'rate-limit counter in memory: 2 round trips',
  },
  {
    id: 'direct_me',
    server: 'database',
    path: '/bench/direct-me',
    auth: true,
    what: 'same core calls on a plain Fastify route (no tRPC, no trpc-to-openapi)',
  },
  {
    id: 'raw_me',
    server: 'database',
    path: '/bench/raw-me',
    auth: true,
    what: 'as direct_me, profile read by raw SQL instead of MikroORM em.findOne',
  },
  {
    id: 'one_query_me',
    server: 'database',
    path: '/bench/one-query-me',
    auth: true,
    what: 'key lookup + counter upsert + profile in one SQL statement: 1 round trip',
  },
];

async function run({ settings, log }: SuiteContext): Promise<BenchResult[]> {
  const results: BenchResult[] = [];
  for (const counters of ['database', 'memory'] as const) {
    const variants = VARIANTS.filter((v) => v.server === counters);
    let api: RunningApi | undefined;
    try {
      api = await startApiServer({
        mode: 'postgres',
        databaseUrl: settings.databaseUrl,
        counters,
        directRoute: true,
      });
      for (const v of variants) {
        log(`${v.id}: GET ${v.path}`);
        const opts: LoadOptions = {
          url: `${api.baseUrl}${v.path}`,
          headers: v.auth ? api.authHeaders : {},
          connections: settings.connections,
          durationS: settings.durationS,
          warmupS: settings.warmupS,
        };
        await expectOk(opts.url, opts.headers);
        const { load, cpu } = await measureWithCpu(opts, api.pid);
        const detail =
          `GET ${v.path}: ${v.what}; ${describeLoad(opts, load)}; CPU µs/request: API ` +
          `${perRequestUs(cpu.server, load).toFixed(0)}, PostgreSQL ${perRequestUs(cpu.postgres, load).toFixed(0)}, ` +
          `load generator ${perRequestUs(cpu.loadGenerator, load).toFixed(0)}`;
        const name = `api.breakdown.${v.id}`;
        results.push(
          { name: `${name}.rps`, value: round(load.rps, 0), unit: 'req/s', better: 'higher', detail },
          {
            name: `${name}.api_cpu_us_per_req`,
            value: round(perRequestUs(cpu.server, load), 0),
            unit: 'µs',
            better: 'lower',
            detail,
          },
          {
            name: `${name}.pg_cpu_us_per_req`,
            value: round(perRequestUs(cpu.postgres, load), 0),
            unit: 'µs',
            better: 'lower',
            detail,
          },
        );
      }
    } finally {
      await api?.stop();
    }
  }
  return results;
}

export const suite: Suite = {
  description:
    'GET /v1/me taken apart: framework, ORM, round trips, counters (opt-in: npm run bench -- api-breakdown)',
  optIn: true,
  run,
};
