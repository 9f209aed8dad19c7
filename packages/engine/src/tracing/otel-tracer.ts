import * as otel from '@opentelemetry/api';
import { tracingOn } from '@verdict/core';
import * as Cause from 'effect/Cause';
import type * as Context from 'effect/Context';
import * as Exit from 'effect/Exit';
import * as Layer from 'effect/Layer';
import * as Option from 'effect/Option';
import * as Tracer from 'effect/Tracer';

/**
 * Effect's tracer, bridged to OpenTelemetry: every span Effect starts (`Effect.withSpan`, `Effect.fn`) is an
 * OpenTelemetry span of the process's provider, parented as Effect parents it. A parent that is not one of
 * these (a span context read from a job's headers, as `Tracer.externalSpan`) becomes a remote parent, so the
 * engine's spans continue the trace of the request that queued the job.
 */
export const openTelemetryTracer = (name = 'verdict-engine'): Tracer.Tracer => {
  const tracer = otel.trace.getTracer(name);
  return Tracer.make({ span: (options) => new BridgedSpan(tracer, options) });
};

type SpanOptions = Parameters<Tracer.Tracer['span']>[0];

const kinds: Record<Tracer.SpanKind, otel.SpanKind> = {
  internal: otel.SpanKind.INTERNAL,
  server: otel.SpanKind.SERVER,
  client: otel.SpanKind.CLIENT,
  producer: otel.SpanKind.PRODUCER,
  consumer: otel.SpanKind.CONSUMER,
};

/** Effect counts nanoseconds as a bigint; OpenTelemetry takes [seconds, nanoseconds]. */
const hrTime = (nanos: bigint): otel.HrTime => [
  Number(nanos / 1_000_000_000n),
  Number(nanos % 1_000_000_000n),
];

/** The OpenTelemetry context a span's parent stands for. */
function parentContext(parent: Option.Option<Tracer.AnySpan>, root: boolean): otel.Context {
  if (root || Option.isNone(parent)) return otel.ROOT_CONTEXT;
  const span = parent.value;
  if (span instanceof BridgedSpan) return otel.trace.setSpan(otel.ROOT_CONTEXT, span.otelSpan);
  return otel.trace.setSpanContext(otel.ROOT_CONTEXT, {
    traceId: span.traceId,
    spanId: span.spanId,
    traceFlags: span.sampled ? otel.TraceFlags.SAMPLED : otel.TraceFlags.NONE,
    isRemote: true,
  });
}

const linkOf = (link: Tracer.SpanLink): otel.Link => ({
  context: {
    traceId: link.span.traceId,
    spanId: link.span.spanId,
    traceFlags: link.span.sampled ? otel.TraceFlags.SAMPLED : otel.TraceFlags.NONE,
  },
  attributes: attributesOf(link.attributes),
});

/** Attribute values OpenTelemetry accepts: primitives and arrays of them; anything else as text. */
function attributeValue(value: unknown): otel.AttributeValue | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  if (typeof value === 'bigint') return Number(value);
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return value as string[];
  if (Array.isArray(value) && value.every((item) => typeof item === 'number')) return value as number[];
  return String(value);
}

function attributesOf(attributes: Readonly<Record<string, unknown>>): otel.Attributes {
  const out: otel.Attributes = {};
  for (const [key, value] of Object.entries(attributes)) {
    const converted = attributeValue(value);
    if (converted !== undefined) out[key] = converted;
  }
  return out;
}

class BridgedSpan implements Tracer.Span {
  readonly _tag = 'Span';
  readonly name: string;
  readonly parent: Option.Option<Tracer.AnySpan>;
  readonly annotations: Context.Context<never>;
  readonly links: Array<Tracer.SpanLink>;
  readonly sampled: boolean;
  readonly kind: Tracer.SpanKind;
  readonly spanId: string;
  readonly traceId: string;
  readonly attributes = new Map<string, unknown>();
  readonly otelSpan: otel.Span;
  status: Tracer.SpanStatus;

  constructor(tracer: otel.Tracer, options: SpanOptions) {
    this.name = options.name;
    this.parent = options.parent;
    this.annotations = options.annotations;
    this.links = [...options.links];
    this.kind = options.kind;
    this.status = { _tag: 'Started', startTime: options.startTime };
    this.otelSpan = tracer.startSpan(
      options.name,
      { kind: kinds[options.kind], startTime: hrTime(options.startTime), links: options.links.map(linkOf) },
      parentContext(options.parent, options.root),
    );
    const spanContext = this.otelSpan.spanContext();
    this.spanId = spanContext.spanId;
    this.traceId = spanContext.traceId;
    // What the provider's sampler decided, not what Effect asked: an unsampled span records nothing.
    this.sampled = options.sampled && (spanContext.traceFlags & otel.TraceFlags.SAMPLED) !== 0;
  }

  end(endTime: bigint, exit: Exit.Exit<unknown, unknown>): void {
    if (this.status._tag === 'Ended') return;
    this.status = { _tag: 'Ended', startTime: this.status.startTime, endTime, exit };
    // An interruption is how a skipped round or a stopping node ends work: not an error of the span.
    if (Exit.isFailure(exit) && !Cause.hasInterruptsOnly(exit.cause)) {
      const error = Cause.squash(exit.cause);
      this.otelSpan.setStatus({
        code: otel.SpanStatusCode.ERROR,
        message: error instanceof Error ? error.message : String(error),
      });
    }
    this.otelSpan.end(hrTime(endTime));
  }

  attribute(key: string, value: unknown): void {
    if (this.status._tag === 'Ended') return;
    this.attributes.set(key, value);
    const converted = attributeValue(value);
    if (converted !== undefined) this.otelSpan.setAttribute(key, converted);
  }

  event(name: string, startTime: bigint, attributes?: Record<string, unknown>): void {
    if (this.status._tag === 'Ended') return;
    this.otelSpan.addEvent(name, attributes ? attributesOf(attributes) : {}, hrTime(startTime));
  }

  addLinks(links: ReadonlyArray<Tracer.SpanLink>): void {
    if (this.status._tag === 'Ended') return;
    this.links.push(...links);
    this.otelSpan.addLinks(links.map(linkOf));
  }
}

/** The trace id of a span this bridge made: for log lines, which must name only traces that are exported. */
export const bridgedTraceId = (span: Tracer.AnySpan | undefined): string | undefined =>
  span instanceof BridgedSpan && span.sampled ? span.traceId : undefined;

/**
 * A span this bridge made as a W3C `traceparent`, for work that continues it elsewhere (the webhook outbox
 * rows a debate's finish writes); undefined for spans that are not exported.
 */
export const bridgedTraceparent = (span: Tracer.AnySpan | undefined): string | undefined =>
  span instanceof BridgedSpan && span.sampled ? `00-${span.traceId}-${span.spanId}-01` : undefined;

/**
 * The engine's tracer: the bridge when this process records spans (core's `tracingOn`), else Effect's own,
 * whose spans stay in memory and cost next to nothing.
 */
export const engineTracerLayer = (): Layer.Layer<never> =>
  tracingOn() ? Layer.succeed(Tracer.Tracer, openTelemetryTracer()) : Layer.empty;
