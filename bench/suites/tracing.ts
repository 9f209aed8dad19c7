import { traceRequests } from '@verdict/api';
import { startTracing } from '@verdict/core';
import Fastify from 'fastify';
import { measureAlternating, type VariantFigures, variantRows } from '../lib/alternating.ts';
import { type RunningApi, startApiServer } from '../lib/api-servers.ts';
import { injectedOverheadUs } from '../lib/inject-overhead.ts';
import { startOtlpSink } from '../lib/otlp-sink.ts';
import { type BenchResult, round } from '../lib/results.ts';
import type { Suite, SuiteContext } from '../lib/suite.ts';

/** Measured passes per server, alternating, so a busy moment of the shared machine hits every one alike. */
const PASSES = 3;

const VARIANTS = ['off', 'on', 'on_json', 'on_sampled'] as const;
type Variant = (typeof VARIANTS)[number];

const WHAT: Record<Variant, string> = {
  off: 'tracing off (no OTLP endpoint: the default)',
  on: 'every request traced, OTLP/HTTP protobuf (the default protocol) to a loopback sink',
  on_json: 'every request traced, OTLP/HTTP JSON to a loopback sink',
  on_sampled: 'one trace in ten (parentbased_traceidratio 0.1), OTLP/HTTP protobuf to a loopback sink',
};

/**
 * The price of tracing on GET /v1/me: API servers of the same build in distributed mode — tracing off, every
 * request traced and exported over OTLP/HTTP protobuf, the same in JSON, and one trace in ten sampled —
 * measured in alternation in the same run. Reports each one's req/s, p99 and API CPU per request, and each
 * traced one's ratios to off.
 */
async function run({ settings, log }: SuiteContext): Promise<BenchResult[]> {
  const sinks = {
    on: await startOtlpSink(),
    on_json: await startOtlpSink(),
    on_sampled: await startOtlpSink(),
  };
  const servers: Partial<Record<Variant, RunningApi>> = {};
  // Batches often and a queue deep enough that no span is dropped at thousands a second: the figures price
  // exporting every span, not dropping most of them.
  const batches = {
    OTEL_BSP_SCHEDULE_DELAY: '200',
    OTEL_BSP_MAX_QUEUE_SIZE: '65536',
    OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '2048',
  };
  const env: Record<Variant, Record<string, string>> = {
    off: {},
    on: { ...batches, OTEL_EXPORTER_OTLP_ENDPOINT: sinks.on.url },
    on_json: {
      ...batches,
      OTEL_EXPORTER_OTLP_ENDPOINT: sinks.on_json.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    },
    on_sampled: {
      ...batches,
      OTEL_EXPORTER_OTLP_ENDPOINT: sinks.on_sampled.url,
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: '0.1',
    },
  };
  try {
    for (const variant of VARIANTS) {
      servers[variant] = await startApiServer({
        mode: 'postgres',
        databaseUrl: settings.databaseUrl,
        env: env[variant],
      });
    }
    const figures = await measureAlternating(servers as Record<Variant, RunningApi>, VARIANTS, {
      settings,
      path: '/v1/me',
      passes: PASSES,
      log: (message) => log(message.replace(/, (\w+)$/, (_, v: Variant) => `, ${WHAT[v]}`)),
    });
    log('a debate read: GET /api/debates/:id of a debate made on each server, tracing off and on');
    const reads = await measureDebateReads(
      { off: servers.off as RunningApi, on: servers.on as RunningApi },
      { settings, log },
    );
    // The last batches leave when the servers stop.
    for (const variant of VARIANTS) {
      await servers[variant]?.stop();
      delete servers[variant];
    }
    checkExported(sinks, figures);
    log('the request hooks, priced in process');
    const hooks = await hookCost();
    return [...rows(figures, sinks), ...readRows(reads), ...shareRows(hooks, figures.off, reads.off)];
  } finally {
    for (const variant of VARIANTS) await servers[variant]?.stop();
    for (const sink of Object.values(sinks)) await sink.close();
  }
}

/**
 * The dashboard's most common read, a debate by id (a database read and a larger answer than /v1/me), loaded
 * on the off and on servers in alternation: each server reads a debate made on it (pending: no engine runs
 * in this suite, which changes nothing about the read).
 */
async function measureDebateReads(
  servers: { off: RunningApi; on: RunningApi },
  { settings, log }: Pick<SuiteContext, 'settings' | 'log'>,
) {
  const ids = { off: await makeDebate(servers.off), on: await makeDebate(servers.on) };
  return measureAlternating(servers, ['off', 'on'] as const, {
    settings,
    path: (variant) => `/api/debates/${ids[variant]}`,
    passes: PASSES,
    log,
  });
}

async function makeDebate(api: RunningApi): Promise<string> {
  const res = await fetch(`${api.baseUrl}/api/debates`, {
    method: 'POST',
    headers: { ...api.authHeaders, 'content-type': 'application/json' },
    body: JSON.stringify({
      question: 'Should we move the billing service to a modular monolith?',
      skipCache: true,
    }),
  });
  if (res.status !== 201) throw new Error(`POST /api/debates answered ${res.status}: ${await res.text()}`);
  return String(((await res.json()) as { debateId: string }).debateId);
}

function readRows(reads: Record<'off' | 'on', VariantFigures>): BenchResult[] {
  const detail = (variant: 'off' | 'on') =>
    `GET /api/debates/:id, distributed mode, ${WHAT[variant]}; mean of ${PASSES} passes alternating ` +
    `(req/s: ${reads[variant].passRps.join(', ')}); first pass: ${reads[variant].firstPass}`;
  return [
    ...variantRows('tracing.debate_read_off', reads.off, detail('off')),
    ...variantRows('tracing.debate_read_on', reads.on, detail('on')),
    {
      name: 'tracing.debate_read.api_cpu_ratio',
      value: round(reads.on.cpuUs / reads.off.cpuUs, 3),
      unit: 'x',
      better: 'lower',
      detail: `API CPU per GET /api/debates/:id, every request traced / off: ${reads.on.cpuUs.toFixed(1)} / ${reads.off.cpuUs.toFixed(1)} µs`,
    },
  ];
}

/**
 * What tracing adds to each request, priced in this process, where a microsecond can be told from noise
 * (lib/inject-overhead.ts): an app without tracing's hooks (before tracing existed), one built while
 * tracing is off (the request-id context hop an API process has by default), and one built once tracing is
 * on, exporting every span in protobuf batches to a sink here (whose reading counts against it).
 */
async function hookCost() {
  const sink = await startOtlpSink();
  const route = (app: ReturnType<typeof Fastify>) => app.get('/api/debates/:id', async () => ({ ok: true }));
  const none = Fastify();
  route(none);
  const off = Fastify();
  traceRequests(off);
  route(off);
  const tracing = startTracing('verdict-bench', {
    OTEL_EXPORTER_OTLP_ENDPOINT: sink.url,
    OTEL_BSP_SCHEDULE_DELAY: '50',
    OTEL_BSP_MAX_QUEUE_SIZE: '65536',
    OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '2048',
  });
  const on = Fastify();
  traceRequests(on);
  route(on);
  try {
    await Promise.all([none.ready(), off.ready(), on.ready()]);
    const options = { blocks: 21, perBlock: 4000 };
    const offCost = await injectedOverheadUs({ without: none, with: off }, '/api/debates/7', options);
    const onCost = await injectedOverheadUs({ without: off, with: on }, '/api/debates/7', options);
    // At thousands of spans a second, the last batches can outnumber the exporter's concurrent exports:
    // those are dropped, as in production, which prices them all the same.
    await tracing.shutdown().catch(() => {});
    if (sink.received.bytes === 0) throw new Error('the traced app exported nothing');
    return { offUs: offCost.overheadUs, onUs: onCost.overheadUs, injectedUs: offCost.withoutUs };
  } finally {
    await tracing.shutdown().catch(() => {});
    await Promise.all([none.close(), off.close(), on.close()]);
    await sink.close();
  }
}

function shareRows(
  hooks: { offUs: number; onUs: number; injectedUs: number },
  off: VariantFigures,
  readOff: VariantFigures,
): BenchResult[] {
  const how = `median of 21 alternating blocks of 4,000 injected requests (${hooks.injectedUs.toFixed(1)} µs each without tracing's hooks)`;
  return [
    {
      name: 'tracing.off.hook_us_per_request',
      value: round(hooks.offUs, 2),
      unit: 'µs',
      better: 'lower',
      detail: `CPU per request of tracing off (the request id put in the handler's context), in process: ${how}`,
    },
    {
      name: 'tracing.on.hook_us_per_request',
      value: round(hooks.onUs, 2),
      unit: 'µs',
      better: 'lower',
      detail: `CPU per request of a span per request exported in protobuf batches, over tracing off, in process: ${how}`,
    },
    {
      name: 'tracing.off.share_of_request_cpu',
      value: round(hooks.offUs / off.cpuUs, 4),
      unit: 'x',
      better: 'lower',
      detail: `${hooks.offUs.toFixed(2)} µs / ${off.cpuUs.toFixed(0)} µs of API CPU per GET /v1/me (tracing off, the load passes above)`,
    },
    {
      name: 'tracing.on.share_of_request_cpu',
      value: round(hooks.onUs / off.cpuUs, 4),
      unit: 'x',
      better: 'lower',
      detail: `${hooks.onUs.toFixed(2)} µs / ${off.cpuUs.toFixed(0)} µs of API CPU per GET /v1/me (tracing off, the load passes above)`,
    },
    {
      name: 'tracing.on.share_of_debate_read_cpu',
      value: round(hooks.onUs / readOff.cpuUs, 4),
      unit: 'x',
      better: 'lower',
      detail: `${hooks.onUs.toFixed(2)} µs / ${readOff.cpuUs.toFixed(0)} µs of API CPU per GET /api/debates/:id (tracing off, the load passes above)`,
    },
  ];
}

type Sinks = Record<Exclude<Variant, 'off'>, Awaited<ReturnType<typeof startOtlpSink>>>;

/** The figures are only worth something if the traced servers exported what they traced. */
function checkExported(sinks: Sinks, figures: Record<Variant, VariantFigures>) {
  const measured = (variant: Variant) => figures[variant].requests;
  if (sinks.on_json.received.jsonSpans < measured('on_json')) {
    throw new Error(
      `the JSON sink received ${sinks.on_json.received.jsonSpans} spans for ${measured('on_json')} requests`,
    );
  }
  // A protobuf span of this route is about a hundred bytes: fewer means spans were dropped.
  if (sinks.on.received.bytes < measured('on') * 100) {
    throw new Error(
      `the protobuf sink received ${sinks.on.received.bytes} bytes for ${measured('on')} requests`,
    );
  }
  const sampledShare = sinks.on_sampled.received.bytes / sinks.on.received.bytes;
  if (sinks.on_sampled.received.exports === 0 || sampledShare > 0.3) {
    throw new Error(
      `the sampled server exported ${(sampledShare * 100).toFixed(0)} % of what the full one did`,
    );
  }
}

function rows(figures: Record<Variant, VariantFigures>, sinks: Sinks): BenchResult[] {
  const detail = (variant: Variant) =>
    `GET /v1/me, distributed mode, ${WHAT[variant]}; mean of ${PASSES} passes alternating with the other servers ` +
    `(req/s: ${figures[variant].passRps.join(', ')}); first pass: ${figures[variant].firstPass}`;
  const perVariant = VARIANTS.flatMap((variant) =>
    variantRows(`tracing.me_${variant}`, figures[variant], detail(variant)),
  );
  const off = figures.off;
  const ratios = (['on', 'on_json', 'on_sampled'] as const).flatMap((variant): BenchResult[] => [
    {
      name: `tracing.${variant}.rps_ratio`,
      value: round(figures[variant].rps / off.rps, 3),
      unit: 'x',
      better: 'higher',
      detail: `req/s, ${WHAT[variant]} / off: ${Math.round(figures[variant].rps)} / ${Math.round(off.rps)}; ${sinks[variant].received.exports} exports, ${sinks[variant].received.bytes} bytes`,
    },
    {
      name: `tracing.${variant}.api_cpu_ratio`,
      value: round(figures[variant].cpuUs / off.cpuUs, 3),
      unit: 'x',
      better: 'lower',
      detail: `API CPU per request, ${WHAT[variant]} / off: ${figures[variant].cpuUs.toFixed(1)} / ${off.cpuUs.toFixed(1)} µs`,
    },
  ]);
  return [...perVariant, ...ratios];
}

export const suite: Suite = {
  description:
    'GET /v1/me with tracing off, on (protobuf, JSON) and sampled one in ten, and a debate read off and on, same run (opt-in: npm run bench -- tracing)',
  optIn: true,
  run,
};
