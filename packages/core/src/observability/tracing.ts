import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { ExportResultCode, W3CTraceContextPropagator } from '@opentelemetry/core';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ParentBasedSampler,
  type Sampler,
  type SpanExporter,
  type SpanProcessor,
  TraceIdRatioBasedSampler,
  TracerProvider,
} from '@opentelemetry/sdk-trace';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import { readFlag } from '../config/flag.ts';

/**
 * Tracing is off unless an OTLP endpoint is configured: code everywhere speaks `@opentelemetry/api`, whose
 * calls are no-ops until a provider is installed here, so a process that exports nothing pays for nothing.
 */
export type Tracing = {
  /** Ends the spans still queued by sending them (a composition root calls it before exiting). */
  shutdown: () => Promise<void>;
};

/** The provider installed in this process, if any: the API and the engine ask before adding their hooks. */
let installed: TracerProvider | null = null;

/** Whether spans are recorded in this process (a provider is installed). */
export const tracingOn = () => installed !== null;

type Env = Record<string, string | undefined>;

/** The OTLP/HTTP traces URL the standard variables name, or null when none is set (tracing off). */
export function otlpTracesUrl(env: Env): string | null {
  const traces = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  if (traces) return traces;
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  return base ? `${base.replace(/\/+$/, '')}/v1/traces` : null;
}

/**
 * OTEL_EXPORTER_OTLP_TRACES_PROTOCOL (or OTEL_EXPORTER_OTLP_PROTOCOL): `http/protobuf`, the specification's
 * default and the cheaper to encode, or `http/json`. gRPC is not offered: unknown values fall back to the
 * default, as the specification asks of an SDK.
 */
export function otlpProtocolFrom(env: Env): 'http/protobuf' | 'http/json' {
  const protocol = (env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? env.OTEL_EXPORTER_OTLP_PROTOCOL)?.trim();
  return protocol === 'http/json' ? 'http/json' : 'http/protobuf';
}

/** OTEL_TRACES_SAMPLER and its argument, as the specification names them; parent-based always-on by default. */
export function samplerFrom(env: Env): Sampler {
  const ratio = Number(env.OTEL_TRACES_SAMPLER_ARG ?? '1');
  const ratioSampler = () => new TraceIdRatioBasedSampler(Number.isFinite(ratio) ? ratio : 1);
  switch (env.OTEL_TRACES_SAMPLER?.trim()) {
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'traceidratio':
      return ratioSampler();
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: ratioSampler() });
    default:
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
  }
}

/** OTEL_RESOURCE_ATTRIBUTES: `key=value` pairs separated by commas, values percent-encoded. */
export function resourceAttributesFrom(env: Env): Record<string, string> {
  const pairs = (env.OTEL_RESOURCE_ATTRIBUTES ?? '').split(',').map((pair) => pair.split('='));
  const attributes: Record<string, string> = {};
  for (const [key, ...value] of pairs) {
    if (!key?.trim() || value.length === 0) continue;
    try {
      attributes[key.trim()] = decodeURIComponent(value.join('=').trim());
    } catch {
      // A malformed value is dropped, as the specification asks, rather than stopping the process.
    }
  }
  return attributes;
}

const positive = (value: string | undefined) => {
  const number = Number(value);
  return value !== undefined && Number.isInteger(number) && number > 0 ? number : undefined;
};

/** The batch processor's OTEL_BSP_* settings (the SDK leaves reading them to its caller). */
function batchOptionsFrom(env: Env) {
  const options = {
    scheduledDelayMillis: positive(env.OTEL_BSP_SCHEDULE_DELAY),
    maxQueueSize: positive(env.OTEL_BSP_MAX_QUEUE_SIZE),
    maxExportBatchSize: positive(env.OTEL_BSP_MAX_EXPORT_BATCH_SIZE),
    exportTimeoutMillis: positive(env.OTEL_BSP_EXPORT_TIMEOUT),
  };
  return Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined));
}

/**
 * The OTLP/HTTP exporter of `protocol`, its package loaded only here: a process that traces nothing (tracing
 * off, as in most runs) never loads the exporters and the encoders under them (BENCHMARKS.md, "The test
 * suite's time"). Loading starts at once; a batch that goes out first waits for it.
 */
function otlpExporter(protocol: 'http/protobuf' | 'http/json', url: string): SpanExporter {
  const exporter: Promise<SpanExporter> =
    protocol === 'http/json'
      ? import('@opentelemetry/exporter-trace-otlp-http').then((m) => new m.OTLPTraceExporter({ url }))
      : import('@opentelemetry/exporter-trace-otlp-proto').then((m) => new m.OTLPTraceExporter({ url }));
  exporter.catch(() => {}); // reported with the first batch, which fails with it
  return {
    export: (spans, resultCallback) => {
      exporter.then(
        (loaded) => loaded.export(spans, resultCallback),
        (error: Error) => resultCallback({ code: ExportResultCode.FAILED, error }),
      );
    },
    shutdown: () => exporter.then((loaded) => loaded.shutdown()),
    forceFlush: () => exporter.then((loaded) => loaded.forceFlush?.()),
  };
}

/**
 * Tracing off: no provider, but a context manager, so the id of the request that queues a job still rides
 * with the job (bus/trace-carrier.ts) and the engine's lines about the debate name it. One async-context
 * hop per request that may queue work is all it costs (BENCHMARKS.md, "The tracing suite").
 */
function carryRequestIdsOnly(): Tracing {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  return {
    shutdown: async () => {
      context.disable();
    },
  };
}

/**
 * Installs a provider as this process's: W3C trace context in and out, spans kept in async context, the
 * given processors. For the composition roots (through `startTracing`), and for tests and benchmarks that
 * read spans in process. `shutdown` flushes and uninstalls it.
 */
export function installTracing(options: {
  serviceName: string;
  spanProcessors: SpanProcessor[];
  sampler?: Sampler;
  resourceAttributes?: Record<string, string>;
}): Tracing {
  if (installed) throw new Error('tracing is already installed in this process');
  const provider = new TracerProvider({
    resource: resourceFromAttributes({
      ...options.resourceAttributes,
      [ATTR_SERVICE_NAME]: options.serviceName,
    }),
    spanProcessors: options.spanProcessors,
    ...(options.sampler ? { sampler: options.sampler } : {}),
  });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  installed = provider;
  return {
    shutdown: async () => {
      if (installed !== provider) return;
      installed = null;
      // Uninstalled first: spans started while the last batch goes out are no-ops, not lost in a closed queue.
      trace.disable();
      propagation.disable();
      context.disable();
      await provider.shutdown();
    },
  };
}

/**
 * Starts tracing as the standard OTEL_* variables say: on when OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT is set
 * and neither OTEL_SDK_DISABLED=true nor OTEL_TRACES_EXPORTER=none says otherwise; spans go in batches over
 * OTLP/HTTP (JSON). The exporter reads OTEL_EXPORTER_OTLP_HEADERS, _TIMEOUT and _COMPRESSION itself.
 * Call it first in a composition root, before anything that might start a span.
 */
export function startTracing(defaultServiceName: string, env: Env = process.env): Tracing {
  const url = otlpTracesUrl(env);
  // OpenTelemetry's own spelling is `true`; 1, yes and on mean the same here, as in every yes/no setting.
  const disabled =
    readFlag(env.OTEL_SDK_DISABLED ?? '') === true || env.OTEL_TRACES_EXPORTER?.trim() === 'none';
  if (!url || disabled) return carryRequestIdsOnly();
  const resourceAttributes = resourceAttributesFrom(env);
  return installTracing({
    serviceName: env.OTEL_SERVICE_NAME?.trim() || resourceAttributes[ATTR_SERVICE_NAME] || defaultServiceName,
    resourceAttributes,
    sampler: samplerFrom(env),
    spanProcessors: [
      new BatchSpanProcessor({
        exporter: otlpExporter(otlpProtocolFrom(env), url),
        ...batchOptionsFrom(env),
      }),
    ],
  });
}
