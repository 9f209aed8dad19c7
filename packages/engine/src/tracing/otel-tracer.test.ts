import { SpanStatusCode } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace';
import { installTracing, type Tracing } from '@verdict/core';
import * as Data from 'effect/Data';
import * as Effect from 'effect/Effect';
import * as Tracer from 'effect/Tracer';
import { afterEach, describe, expect, it } from 'vitest';
import { bridgedTraceId, openTelemetryTracer } from './otel-tracer.ts';

class Refused extends Data.TaggedError('Refused') {}

/** A job-like program: a parent span with two children, one of which fails and is recovered. */
const program = Effect.gen(function* () {
  yield* Effect.annotateCurrentSpan({
    'debate.id': 'd-1',
    tokens: 12n,
    models: ['a', 'b'],
    nested: { x: 1 },
  });
  yield* Effect.void.pipe(Effect.withSpan('child.ok', { attributes: { 'debate.round': 1 } }));
  yield* Effect.fail(new Refused()).pipe(
    Effect.withSpan('child.failed'),
    Effect.catchTag('Refused', () => Effect.void),
  );
  return bridgedTraceId(yield* Effect.currentSpan);
}).pipe(Effect.withSpan('parent', { kind: 'consumer' }));

let tracing: Tracing | null = null;
afterEach(async () => {
  await tracing?.shutdown();
  tracing = null;
});

describe('the Effect tracer bridged to OpenTelemetry', () => {
  it("makes Effect's spans OpenTelemetry spans with the same parents, attributes, kinds and failures", async () => {
    const exporter = new InMemorySpanExporter();
    tracing = installTracing({
      serviceName: 'engine-test',
      spanProcessors: [new SimpleSpanProcessor({ exporter })],
    });
    const traceId = await Effect.runPromise(Effect.withTracer(program, openTelemetryTracer()));
    const spans = exporter.getFinishedSpans();
    const byName = new Map(spans.map((span) => [span.name, span]));
    const parent = byName.get('parent');
    expect(spans.map((span) => span.name).sort()).toEqual(['child.failed', 'child.ok', 'parent']);
    expect(parent?.parentSpanContext).toBeUndefined();
    expect(traceId).toBe(parent?.spanContext().traceId);
    for (const name of ['child.ok', 'child.failed']) {
      expect(byName.get(name)?.parentSpanContext?.spanId).toBe(parent?.spanContext().spanId);
      expect(byName.get(name)?.spanContext().traceId).toBe(traceId);
    }
    expect(parent?.kind).toBe(4); // CONSUMER
    expect(parent?.attributes).toMatchObject({ 'debate.id': 'd-1', tokens: 12, models: ['a', 'b'] });
    expect(parent?.attributes.nested).toBe('[object Object]');
    expect(byName.get('child.ok')?.attributes['debate.round']).toBe(1);
    expect(byName.get('child.failed')?.status.code).toBe(SpanStatusCode.ERROR);
    expect(byName.get('child.ok')?.status.code).toBe(SpanStatusCode.UNSET);
    // Durations from Effect's clock, in the provider's time.
    expect(parent?.duration[0]).toBeGreaterThanOrEqual(0);
    expect(parent?.endTime[0]).toBeGreaterThan(1_600_000_000);
  });

  it('continues a trace from a span context read elsewhere (a job header) as a remote parent', async () => {
    const exporter = new InMemorySpanExporter();
    tracing = installTracing({
      serviceName: 'engine-test',
      spanProcessors: [new SimpleSpanProcessor({ exporter })],
    });
    const remote = Tracer.externalSpan({ traceId: 'a'.repeat(32), spanId: 'b'.repeat(16), sampled: true });
    await Effect.runPromise(
      Effect.withTracer(Effect.void.pipe(Effect.withSpan('job', { parent: remote })), openTelemetryTracer()),
    );
    const [job] = exporter.getFinishedSpans();
    expect(job?.spanContext().traceId).toBe('a'.repeat(32));
    expect(job?.parentSpanContext).toMatchObject({ spanId: 'b'.repeat(16), isRemote: true });
  });

  it('runs the same programs with no provider installed, exporting nothing and naming no trace on log lines', async () => {
    const exporter = new InMemorySpanExporter();
    // A processor on no installed provider: the no-op API gives it nothing.
    new SimpleSpanProcessor({ exporter });
    const traceId = await Effect.runPromise(Effect.withTracer(program, openTelemetryTracer()));
    expect(traceId).toBeUndefined();
    expect(exporter.getFinishedSpans()).toEqual([]);
  });
});
