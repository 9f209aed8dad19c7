import { measureRequests } from '@verdict/api';
import Fastify from 'fastify';
import { measureAlternating, type VariantFigures, variantRows } from '../lib/alternating.ts';
import { type RunningApi, startApiServer } from '../lib/api-servers.ts';
import { injectedOverheadUs } from '../lib/inject-overhead.ts';
import { type BenchResult, round } from '../lib/results.ts';
import type { Suite, SuiteContext } from '../lib/suite.ts';

/** Measured passes per server, alternating. */
const PASSES = 4;
/** The scraper asks this often during the "on" passes: fifteen times Prometheus's usual 15 s, to be harsh. */
const SCRAPE_EVERY_MS = 1000;
const TOKEN = 'bench-metrics-token-0123456789';

/**
 * What the metrics cost the API: two servers of the same build in distributed mode, one without
 * METRICS_TOKEN (requests are not measured and there is no /metrics) and one with it, scraped every second
 * while it is loaded; GET /v1/me on each in alternation. The figures are the ratios of req/s and of API CPU
 * per request, on to off (issue: the metrics cost under 2 % of the API's throughput).
 */
async function run({ settings, log }: SuiteContext): Promise<BenchResult[]> {
  const servers: Partial<Record<'off' | 'on', RunningApi>> = {};
  try {
    servers.off = await startApiServer({ mode: 'postgres', databaseUrl: settings.databaseUrl });
    servers.on = await startApiServer({
      mode: 'postgres',
      databaseUrl: settings.databaseUrl,
      env: { METRICS_TOKEN: TOKEN },
    });
    const scrapes = { count: 0 };
    const figures = await measureAlternating({ off: servers.off, on: servers.on }, ['off', 'on'], {
      settings,
      path: '/v1/me',
      passes: PASSES,
      log,
      during: (variant, api) => (variant === 'on' ? scrapeEvery(api, scrapes) : async () => {}),
    });
    await checkMeasured(servers.off, servers.on);
    log('the hook and a scrape, priced in process');
    const inProcess = await hookAndScrapeCost();
    return [...rows(figures, scrapes.count), ...shareRows(inProcess, figures.off)];
  } finally {
    await servers.off?.stop();
    await servers.on?.stop();
  }
}

/** Scrapes /metrics every SCRAPE_EVERY_MS until stopped, as Prometheus would (one scrape at a time). */
function scrapeEvery(api: RunningApi, scrapes: { count: number }) {
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      const res = await fetch(`${api.baseUrl}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
      await res.text();
      if (res.status !== 200) throw new Error(`/metrics answered ${res.status}`);
      scrapes.count++;
      await new Promise((resolve) => setTimeout(resolve, SCRAPE_EVERY_MS));
    }
  })();
  return async () => {
    stopped = true;
    await loop;
  };
}

/** The figures are only worth something if one server measured its requests and the other had nothing to. */
async function checkMeasured(off: RunningApi, on: RunningApi) {
  const offScrape = await fetch(`${off.baseUrl}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
  if (offScrape.status !== 404)
    throw new Error(`the server without METRICS_TOKEN served /metrics (${offScrape.status})`);
  const text = await (
    await fetch(`${on.baseUrl}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })
  ).text();
  const counted = /verdict_http_request_duration_seconds_count\{[^}]*route="\/v1\/me"[^}]*\} (\d+)/.exec(
    text,
  );
  if (!counted || Number(counted[1]) === 0)
    throw new Error('the server with METRICS_TOKEN did not count GET /v1/me');
}

/** Prometheus's usual scrape interval: what a scrape's cost is spread over. */
const PROMETHEUS_INTERVAL_S = 15;

/**
 * The two things the metrics add, priced on their own in this process: the request hook (two Fastify apps,
 * one measuring, one not, the same route injected into each) and one scrape of a registry holding as many
 * request series as a busy API process (60 routes × 2 methods × 4 statuses).
 */
async function hookAndScrapeCost() {
  const debatesByStatus = async () => ({ pending: 2, running: 8, paused: 0, completed: 1200, failed: 3 });
  const route = (app: ReturnType<typeof Fastify>) => app.get('/api/debates/:id', async () => ({ ok: true }));
  const without = Fastify();
  measureRequests(without, { debatesByStatus }, false);
  route(without);
  const measuring = Fastify();
  measureRequests(measuring, { debatesByStatus }, true);
  route(measuring);
  await Promise.all([without.ready(), measuring.ready()]);
  const hook = await injectedOverheadUs({ without, with: measuring }, '/api/debates/7', {
    blocks: 21,
    perBlock: 4000,
  });
  // 480 request series: 60 more routes, each answered with two methods and four statuses.
  const many = Fastify();
  const { registry: manyRegistry } = measureRequests(many, { debatesByStatus }, true);
  for (let r = 0; r < 60; r++) {
    many.route({
      method: ['GET', 'POST'],
      url: `/api/route-${r}/:id`,
      handler: async (request, reply) => reply.code(Number((request.query as { s: string }).s)).send({}),
    });
  }
  for (let r = 0; r < 60; r++)
    for (const method of ['GET', 'POST'] as const)
      for (const status of [200, 201, 404, 429])
        await many.inject({ method, url: `/api/route-${r}/7?s=${status}` });
  const scrapes: number[] = [];
  for (let i = 0; i < 21; i++) {
    const started = process.cpuUsage();
    await manyRegistry.metrics();
    const used = process.cpuUsage(started);
    scrapes.push((used.user + used.system) / 1000);
  }
  scrapes.sort((a, b) => a - b);
  await Promise.all([without.close(), measuring.close(), many.close()]);
  return { hookUs: hook.overheadUs, injectedUs: hook.withoutUs, scrapeMs: scrapes[10] ?? 0 };
}

function shareRows(
  cost: { hookUs: number; injectedUs: number; scrapeMs: number },
  off: VariantFigures,
): BenchResult[] {
  const scrapeUsPerRequest = (cost.scrapeMs * 1000) / (PROMETHEUS_INTERVAL_S * off.rps);
  const share = (cost.hookUs + scrapeUsPerRequest) / off.cpuUs;
  return [
    {
      name: 'metrics.hook_us_per_request',
      value: round(cost.hookUs, 2),
      unit: 'µs',
      better: 'lower',
      detail: `the onResponse hook's CPU per request, in process: median of 21 alternating blocks of 4,000 injected requests (${cost.injectedUs.toFixed(1)} µs each without it)`,
    },
    {
      name: 'metrics.scrape_ms',
      value: round(cost.scrapeMs, 2),
      unit: 'ms',
      better: 'lower',
      detail:
        "CPU of one scrape of a registry with 480 request series (60 routes × 2 methods × 4 statuses) and Node's own; median of 21",
    },
    {
      name: 'metrics.cost.share_of_request_cpu',
      value: round(share, 4),
      unit: 'x',
      better: 'lower',
      detail: `(hook ${cost.hookUs.toFixed(2)} µs + a scrape every ${PROMETHEUS_INTERVAL_S} s spread over ${Math.round(off.rps)} req/s: ${scrapeUsPerRequest.toFixed(3)} µs) / ${off.cpuUs.toFixed(0)} µs of API CPU per GET /v1/me`,
    },
  ];
}

function rows(figures: Record<'off' | 'on', VariantFigures>, scrapes: number): BenchResult[] {
  const { off, on } = figures;
  const detail = (variant: 'off' | 'on') =>
    `GET /v1/me, distributed mode, ${variant === 'on' ? `METRICS_TOKEN set, scraped every ${SCRAPE_EVERY_MS} ms` : 'no METRICS_TOKEN'}; ` +
    `mean of ${PASSES} passes alternating with the other server (req/s: ${figures[variant].passRps.join(', ')}); first pass: ${figures[variant].firstPass}`;
  return [
    ...variantRows('metrics.me_off', off, detail('off')),
    ...variantRows('metrics.me_on', on, detail('on')),
    {
      name: 'metrics.cost.rps_ratio',
      value: round(on.rps / off.rps, 3),
      unit: 'x',
      better: 'higher',
      detail: `req/s with metrics / without: ${Math.round(on.rps)} / ${Math.round(off.rps)}; ${scrapes} scrapes`,
    },
    {
      name: 'metrics.cost.api_cpu_ratio',
      value: round(on.cpuUs / off.cpuUs, 3),
      unit: 'x',
      better: 'lower',
      detail: `API CPU per request with metrics / without: ${on.cpuUs.toFixed(1)} / ${off.cpuUs.toFixed(1)} µs, the scrapes included`,
    },
  ];
}

export const suite: Suite = {
  description:
    'GET /v1/me with the metrics off and on (METRICS_TOKEN, scraped), same run (opt-in: npm run bench -- metrics)',
  optIn: true,
  run,
};
