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

function ratio(target: string, r: LoadResult, bare: LoadResult, what: string): BenchResult {
  return {
    name: `api.${target}.ratio_to_bare`,
    value: round(r.rps / bare.rps, 3),
    unit: 'x',
    better: 'higher',
    detail: `${what}: ${Math.round(r.rps)} / ${Math.round(bare.rps)} req/s of the bare Fastify route, same run`,
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

  log('bare Fastify: GET /bare');
  const bareServer = await startBareServer();
  let bare: LoadResult;
  try {
    const opts = load(`${bareServer.baseUrl}/bare`);
    await expectOk(opts.url);
    bare = await measure(opts);
    results.push(...rows('bare_fastify', 'plain Fastify 5, trivial JSON route, no plugins', opts, bare));
  } finally {
    await bareServer.stop();
  }

  // Node's http (the names without a suffix, as before) and uWebSockets.js (`_uws`), each with its targets.
  for (const streams of ['node', 'uws'] as const) {
    const suffix = streams === 'uws' ? '_uws' : '';
    const on = streams === 'uws' ? ' on uWebSockets.js' : '';
    log(`distributed mode (PostgreSQL, database counters)${on}: GET /v1/health, GET /v1/me`);
    const api = await startApiServer({ mode: 'postgres', databaseUrl: settings.databaseUrl, streams });
    try {
      const healthOpts = load(`${api.baseUrl}/v1/health`);
      await expectOk(healthOpts.url);
      const health = await measure(healthOpts);
      const healthWhat = `GET /v1/health through the full API (tRPC + trpc-to-openapi)${on}, no auth, no database`;
      results.push(
        ...rows(`v1_health${suffix}`, healthWhat, healthOpts, health),
        ratio(`v1_health${suffix}`, health, bare, healthWhat),
      );

      const meOpts = load(`${api.baseUrl}/v1/me`, api.authHeaders);
      const headers = await expectOk(meOpts.url, meOpts.headers);
      if (headers.get('x-ratelimit-limit') !== '100000000')
        throw new Error('GET /v1/me ran without the key rate limit');
      const me = await measure(meOpts);
      const meWhat = `authenticated GET /v1/me${on}, PostgreSQL + database rate-limit counters (key lookup, counter upsert, profile read)`;
      results.push(...rows(`v1_me${suffix}`, meWhat, meOpts, me), ratio(`v1_me${suffix}`, me, bare, meWhat));
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
        const health = await measure(healthOpts);
        const healthWhat = `GET /v1/health, embedded${on}, no auth, no database`;
        results.push(
          ...rows(`v1_health_embedded${suffix}`, healthWhat, healthOpts, health),
          ratio(`v1_health_embedded${suffix}`, health, bare, healthWhat),
        );
      }
      const opts = load(`${embedded.baseUrl}/v1/me`, embedded.authHeaders);
      await expectOk(opts.url, opts.headers);
      const me = await measure(opts);
      const what = `authenticated GET /v1/me, embedded PGlite in-process + memory rate-limit counters${on}`;
      results.push(
        ...rows(`v1_me_embedded${suffix}`, what, opts, me),
        ratio(`v1_me_embedded${suffix}`, me, bare, what),
      );
    } finally {
      await embedded.stop();
    }
  }
  return results;
}

export const suite: Suite = {
  description: 'HTTP throughput of the API next to a bare Fastify route (distributed and embedded mode)',
  run,
};
