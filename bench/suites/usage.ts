import { measureAlternating, type VariantFigures } from '../lib/alternating.ts';
import { type RunningApi, startApiServer } from '../lib/api-servers.ts';
import { type BenchResult, round } from '../lib/results.ts';
import type { Suite, SuiteContext } from '../lib/suite.ts';

/** Measured passes per server, alternating (ABBA…), so a busy moment of the shared machine hits both alike. */
const PASSES = 3;

/**
 * The price of per-key usage counting on GET /v1/me: two API servers of the same build, in distributed mode
 * (PostgreSQL, database rate-limit counters, as production), one counting usage and one not
 * (BENCH_USAGE_COUNTING=off), measured in alternation in the same run. Reports each one's req/s, p50, p99
 * and API CPU per request (averaged over the passes), and the differences.
 */
async function run({ settings, log }: SuiteContext): Promise<BenchResult[]> {
  const servers: Partial<Record<'on' | 'off', RunningApi>> = {};
  try {
    servers.on = await startApiServer({ mode: 'postgres', databaseUrl: settings.databaseUrl });
    servers.off = await startApiServer({
      mode: 'postgres',
      databaseUrl: settings.databaseUrl,
      countUsage: false,
    });
    const figures = await measureAlternating({ on: servers.on, off: servers.off }, ['off', 'on'], {
      settings,
      path: '/v1/me',
      passes: PASSES,
      log: (message) => log(`${message} usage counting`),
    });
    await checkCounted(servers.on, servers.off);
    const { on, off } = figures;
    const detail = (counting: 'on' | 'off') =>
      `GET /v1/me, distributed mode (PostgreSQL, database rate-limit counters), usage counting ${counting}; ` +
      `mean of ${PASSES} passes alternating with the other server (req/s of each: ` +
      `${figures[counting].passRps.join(', ')}); first pass: ${figures[counting].firstPass}`;
    const rows = (counting: 'on' | 'off', f: VariantFigures): BenchResult[] => [
      {
        name: `usage.me_counting_${counting}.rps`,
        value: round(f.rps, 0),
        unit: 'req/s',
        better: 'higher',
        detail: detail(counting),
      },
      {
        name: `usage.me_counting_${counting}.p50_ms`,
        value: round(f.p50Ms),
        unit: 'ms',
        better: 'lower',
        detail: detail(counting),
      },
      {
        name: `usage.me_counting_${counting}.p99_ms`,
        value: round(f.p99Ms),
        unit: 'ms',
        better: 'lower',
        detail: detail(counting),
      },
      {
        name: `usage.me_counting_${counting}.api_cpu_us_per_req`,
        value: round(f.cpuUs, 0),
        unit: 'µs',
        better: 'lower',
        detail: detail(counting),
      },
    ];
    return [
      ...rows('off', off),
      ...rows('on', on),
      {
        name: 'usage.counting_cost.rps_ratio',
        value: round(on.rps / off.rps, 3),
        unit: 'x',
        better: 'higher',
        detail: `req/s with counting / without: ${Math.round(on.rps)} / ${Math.round(off.rps)}`,
      },
      {
        name: 'usage.counting_cost.api_cpu_us_per_req',
        value: round(on.cpuUs - off.cpuUs, 1),
        unit: 'µs',
        better: 'lower',
        detail: `API CPU per request with counting minus without: ${on.cpuUs.toFixed(0)} − ${off.cpuUs.toFixed(0)} µs`,
      },
    ];
  } finally {
    await servers.on?.stop();
    await servers.off?.stop();
  }
}

/** The figures are only worth something if one server counted and the other did not. */
async function checkCounted(on: RunningApi | undefined, off: RunningApi | undefined) {
  for (const [api, counted] of [
    [on, true],
    [off, false],
  ] as const) {
    if (!api) continue;
    const res = await fetch(`${api.baseUrl}/v1/usage`, { headers: api.authHeaders });
    const usage = (await res.json()) as { byEndpoint?: Record<string, number> };
    const me = usage.byEndpoint?.['/v1/me'] ?? 0;
    if (counted !== me > 0)
      throw new Error(`usage counting was not ${counted ? 'on' : 'off'}: ${JSON.stringify(usage)}`);
  }
}

export const suite: Suite = {
  description: 'GET /v1/me with per-key usage counting on and off, same run (opt-in: npm run bench -- usage)',
  optIn: true,
  run,
};
