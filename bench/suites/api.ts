import { expectOk, startApiServer, startBareServer } from '../lib/api-servers.ts';
import { describeLoad, type LoadOptions, type LoadResult, measure } from '../lib/load.ts';
import { type BenchResult, round } from '../lib/results.ts';
import type { Suite, SuiteContext } from '../lib/suite.ts';

/** rps, p50 and p99 rows of one measured target, named `api.<target>.*`. */
function rows(target: string, what: string, options: LoadOptions, r: LoadResult): BenchResult[] {
  const detail = `${what}; ${describeLoad(options, r)}`;
  return [
    { name: `api.${target}.rps`, value: round(r.rps, 0), unit: 'req/s', better: 'higher', detail },
    { name: `api.${target}.p50_ms`, value: round(r.p50Ms), unit: 'ms', better: 'lower', detail },
    { name: `api.${target}.p99_ms`, value: round(r.p99Ms), unit: 'ms', better: 'lower', detail },
  ];
}

/** Rounds of a bare pass and a target pass, each half the bench's duration. */
const ROUNDS = 5;

/** The rounds' results as one: their requests summed, their rates and latencies averaged. */
function meanOf(results: LoadResult[]): LoadResult {
  const mean = (pick: (r: LoadResult) => number) =>
    results.reduce((sum, r) => sum + pick(r), 0) / results.length;
  const sum = (pick: (r: LoadResult) => number) => results.reduce((total, r) => total + pick(r), 0);
  return {
    rps: mean((r) => r.rps),
    p50Ms: mean((r) => r.p50Ms),
    p99Ms: mean((r) => r.p99Ms),
    meanMs: mean((r) => r.meanMs),
    requests: sum((r) => r.requests),
    non2xx: sum((r) => r.non2xx),
    errors: sum((r) => r.errors),
    timeouts: sum((r) => r.timeouts),
    statusCodes: results.reduce<Record<string, number>>((codes, r) => {
      for (const [code, count] of Object.entries(r.statusCodes)) codes[code] = (codes[code] ?? 0) + count;
      return codes;
    }, {}),
  };
}

/** The median of the rounds' target ÷ bare: one round beside a busy moment does not move it. */
function ratio(target: string, pairs: { bare: LoadResult; target: LoadResult }[], what: string): BenchResult {
  const ratios = pairs.map((p) => p.target.rps / p.bare.rps).sort((a, b) => a - b);
  const median = ratios[Math.floor(ratios.length / 2)] ?? 0;
  const each = pairs.map((p) => `${Math.round(p.target.rps)}/${Math.round(p.bare.rps)}`).join(', ');
  return {
    name: `api.${target}.ratio_to_bare`,
    value: round(median, 3),
    unit: 'x',
    better: 'higher',
    detail: `${what}: median of ${pairs.length} rounds of target ÷ bare Fastify req/s, each bare pass just before its target's (${each})`,
  };
}

async function run({ settings, log }: SuiteContext): Promise<BenchResult[]> {
  const load = (url: string, headers?: Record<string, string>): LoadOptions => ({
    url,
    headers: headers ?? {},
    connections: settings.connections,
    durationS: settings.durationS,
    warmupS: settings.warmupS,
  });
  const results: BenchResult[] = [];

  // The bare route is measured beside each target, in rounds (bare, target, bare, target …), and the target's
  // ratio is the median of the rounds' ratios: this machine's speed drifts by 15 % or more from one minute to
  // the next, which a single bare pass at the start would put into every later ratio.
  log('bare Fastify: GET /bare');
  const bareServer = await startBareServer();
  const bareOpts = load(`${bareServer.baseUrl}/bare`);
  await expectOk(bareOpts.url);
  const first = await measure(bareOpts);
  results.push(...rows('bare_fastify', 'plain Fastify 5, trivial JSON route, no plugins', bareOpts, first));
  const measureBesideBare: MeasureBesideBare = async (target, what, opts) => {
    const round = (options: LoadOptions, warm: boolean): LoadOptions => ({
      ...options,
      durationS: Math.max(1, Math.round(settings.durationS / 2)),
      warmupS: warm ? settings.warmupS : 0,
    });
    const pairs: { bare: LoadResult; target: LoadResult }[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const bare = await measure(round(bareOpts, i === 0));
      pairs.push({ bare, target: await measure(round(opts, i === 0)) });
    }
    results.push(...rows(target, what, opts, meanOf(pairs.map((p) => p.target))));
    results.push(ratio(target, pairs, what));
  };
  try {
    await measureTargets(load, measureBesideBare, log, settings.databaseUrl);
  } finally {
    await bareServer.stop();
  }
  return results;
}

type MeasureBesideBare = (target: string, what: string, opts: LoadOptions) => Promise<void>;

async function measureTargets(
  load: (url: string, headers?: Record<string, string>) => LoadOptions,
  measureBesideBare: MeasureBesideBare,
  log: (line: string) => void,
  databaseUrl: string,
): Promise<void> {
  // Node's http (the names without a suffix, as before) and uWebSockets.js (`_uws`), each with its targets.
  for (const streams of ['node', 'uws'] as const) {
    const suffix = streams === 'uws' ? '_uws' : '';
    const on = streams === 'uws' ? ' on uWebSockets.js' : '';
    log(`distributed mode (PostgreSQL, database counters)${on}: GET /v1/health, GET /v1/me`);
    const api = await startApiServer({ mode: 'postgres', databaseUrl, streams });
    try {
      const healthOpts = load(`${api.baseUrl}/v1/health`);
      await expectOk(healthOpts.url);
      const healthWhat = `GET /v1/health through the full API (tRPC + trpc-to-openapi)${on}, no auth, no database`;
      await measureBesideBare(`v1_health${suffix}`, healthWhat, healthOpts);

      const meOpts = load(`${api.baseUrl}/v1/me`, api.authHeaders);
      const headers = await expectOk(meOpts.url, meOpts.headers);
      if (headers.get('x-ratelimit-limit') !== '100000000')
        throw new Error('GET /v1/me ran without the key rate limit');
      const meWhat = `authenticated GET /v1/me${on}, PostgreSQL + database rate-limit counters (key lookup, counter upsert, profile read)`;
      await measureBesideBare(`v1_me${suffix}`, meWhat, meOpts);
    } finally {
      await api.stop();
    }
  }

  // The embedded default: its /v1/me on Node's http (the name without a suffix, as before), and both routes on
  // uWebSockets.js, where the front door's targets are set for both modes.
  for (const streams of ['node', 'uws'] as const) {
    const suffix = streams === 'uws' ? '_uws' : '';
    const on = streams === 'uws' ? ' on uWebSockets.js' : '';
    log(
      `embedded mode (PGlite, memory counters)${on}: GET /v1/me${streams === 'uws' ? ', GET /v1/health' : ''}`,
    );
    const embedded = await startApiServer({ mode: 'embedded', streams });
    try {
      if (streams === 'uws') {
        const healthOpts = load(`${embedded.baseUrl}/v1/health`);
        await expectOk(healthOpts.url);
        const healthWhat = `GET /v1/health, embedded${on}, no auth, no database`;
        await measureBesideBare(`v1_health_embedded${suffix}`, healthWhat, healthOpts);
      }
      const opts = load(`${embedded.baseUrl}/v1/me`, embedded.authHeaders);
      await expectOk(opts.url, opts.headers);
      const what = `authenticated GET /v1/me, embedded PGlite in-process + memory rate-limit counters${on}`;
      await measureBesideBare(`v1_me_embedded${suffix}`, what, opts);
    } finally {
      await embedded.stop();
    }
  }
}

export const suite: Suite = {
  description: 'HTTP throughput of the API next to a bare Fastify route (distributed and embedded mode)',
  run,
};
