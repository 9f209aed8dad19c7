import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expectOk, type RunningApi, startApiServer } from '../lib/api-servers.ts';
import { describeLoad, type LoadOptions, type LoadResult } from '../lib/load.ts';
import { type CpuSplit, measureWithCpu, perRequestUs } from '../lib/measure-cpu.ts';
import { type BenchResult, round } from '../lib/results.ts';
import type { Suite, SuiteContext } from '../lib/suite.ts';

/** Measured passes per server, alternating (ABBA…), so a busy moment of the shared machine hits both alike. */
const PASSES = 3;

type Pass = { load: LoadResult; cpu: CpuSplit };
type Tracing = 'off' | 'on';

const mean = (values: number[]) => values.reduce((sum, v) => sum + v, 0) / values.length;

/**
 * An OTLP/HTTP traces receiver on loopback that answers every export at once and counts the spans in it
 * (the JSON encoding the API's exporter sends): the "collector" of the traced server.
 */
async function startOtlpSink(): Promise<{ url: string; spans: () => number; close: () => Promise<void> }> {
  let spans = 0;
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
          resourceSpans?: { scopeSpans?: { spans?: unknown[] }[] }[];
        };
        for (const resource of body.resourceSpans ?? [])
          for (const scope of resource.scopeSpans ?? []) spans += scope.spans?.length ?? 0;
      } catch {
        // Not JSON: counted as nothing; the span count check below then fails the suite.
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans: () => spans,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * The price of tracing on GET /v1/me: two API servers of the same build in distributed mode, one with
 * tracing off (no OTLP endpoint: as production by default) and one exporting every request's span in
 * batches over OTLP/HTTP to a sink in this process, measured in alternation in the same run. Reports each
 * one's req/s, p50, p99 and API CPU per request, the ratio on/off, and how many spans reached the sink.
 */
async function run({ settings, log }: SuiteContext): Promise<BenchResult[]> {
  const sink = await startOtlpSink();
  const servers: Record<Tracing, RunningApi | undefined> = { on: undefined, off: undefined };
  const passes: Record<Tracing, Pass[]> = { on: [], off: [] };
  try {
    // Six passes in a few minutes pass the default 100,000 requests a minute of the bench account.
    const limit = { BENCH_RATE_LIMIT: '100000000' };
    servers.off = await startApiServer({ mode: 'postgres', databaseUrl: settings.databaseUrl, env: limit });
    servers.on = await startApiServer({
      mode: 'postgres',
      databaseUrl: settings.databaseUrl,
      env: {
        ...limit,
        OTEL_EXPORTER_OTLP_ENDPOINT: sink.url,
        // Batches often and a queue deep enough that no span is dropped at thousands a second: the figure
        // prices exporting every span, not dropping most of them.
        OTEL_BSP_SCHEDULE_DELAY: '200',
        OTEL_BSP_MAX_QUEUE_SIZE: '65536',
        OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '2048',
      },
    });
    let options: LoadOptions | undefined;
    let tracedRequests = 0;
    for (let pass = 1; pass <= PASSES; pass++) {
      for (const tracing of pass % 2 === 1 ? (['off', 'on'] as const) : (['on', 'off'] as const)) {
        const api = servers[tracing];
        if (!api) throw new Error('server missing');
        options = {
          url: `${api.baseUrl}/v1/me`,
          headers: api.authHeaders,
          connections: settings.connections,
          durationS: settings.durationS,
          warmupS: settings.warmupS,
        };
        await expectOk(options.url, options.headers);
        log(`pass ${pass}: GET /v1/me with tracing ${tracing}`);
        const measured = await measureWithCpu(options, api.pid);
        passes[tracing].push(measured);
        if (tracing === 'on') tracedRequests += measured.load.requests;
      }
    }
    // Every request the traced server answered (warm-ups and checks included) is a span; the last batch
    // leaves when the server stops.
    await servers.on.stop();
    servers.on = undefined;
    const received = sink.spans();
    if (received < tracedRequests) {
      throw new Error(`the sink received ${received} spans for at least ${tracedRequests} traced requests`);
    }
    if (!options) return [];
    const loadOptions = options;
    const figures = (tracing: Tracing) => ({
      rps: mean(passes[tracing].map((p) => p.load.rps)),
      p50: mean(passes[tracing].map((p) => p.load.p50Ms)),
      p99: mean(passes[tracing].map((p) => p.load.p99Ms)),
      cpuUs: mean(passes[tracing].map((p) => perRequestUs(p.cpu.server, p.load))),
    });
    const on = figures('on');
    const off = figures('off');
    const detail = (tracing: Tracing) =>
      `GET /v1/me, distributed mode, tracing ${tracing}${tracing === 'on' ? ' (batched OTLP/HTTP to a loopback sink)' : ''}; ` +
      `mean of ${PASSES} passes alternating with the other server (req/s of each: ` +
      `${passes[tracing].map((p) => Math.round(p.load.rps)).join(', ')}); first pass: ` +
      describeLoad(loadOptions, passes[tracing][0]?.load as LoadResult);
    const rows = (tracing: Tracing, f: typeof on): BenchResult[] => [
      {
        name: `tracing.me_${tracing}.rps`,
        value: round(f.rps, 0),
        unit: 'req/s',
        better: 'higher',
        detail: detail(tracing),
      },
      {
        name: `tracing.me_${tracing}.p50_ms`,
        value: round(f.p50),
        unit: 'ms',
        better: 'lower',
        detail: detail(tracing),
      },
      {
        name: `tracing.me_${tracing}.p99_ms`,
        value: round(f.p99),
        unit: 'ms',
        better: 'lower',
        detail: detail(tracing),
      },
      {
        name: `tracing.me_${tracing}.api_cpu_us_per_req`,
        value: round(f.cpuUs, 0),
        unit: 'µs',
        better: 'lower',
        detail: detail(tracing),
      },
    ];
    return [
      ...rows('off', off),
      ...rows('on', on),
      {
        name: 'tracing.on_off.rps_ratio',
        value: round(on.rps / off.rps, 3),
        unit: 'x',
        better: 'higher',
        detail: `req/s with tracing on / off: ${Math.round(on.rps)} / ${Math.round(off.rps)}`,
      },
      {
        name: 'tracing.on_cost.api_cpu_us_per_req',
        value: round(on.cpuUs - off.cpuUs, 1),
        unit: 'µs',
        better: 'lower',
        detail: `API CPU per request with tracing on minus off: ${on.cpuUs.toFixed(0)} − ${off.cpuUs.toFixed(0)} µs`,
      },
      {
        name: 'tracing.spans_received',
        value: received,
        unit: 'spans',
        better: 'higher',
        detail: `spans the sink received from the traced server, for ${tracedRequests} measured requests (plus warm-ups and checks)`,
      },
    ];
  } finally {
    await servers.on?.stop();
    await servers.off?.stop();
    await sink.close();
  }
}

export const suite: Suite = {
  description:
    'GET /v1/me with tracing off and on (OTLP to a local sink), same run (opt-in: npm run bench -- tracing)',
  optIn: true,
  run,
};
