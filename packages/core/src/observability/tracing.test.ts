import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { context, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace';
import { afterEach, describe, expect, it } from 'vitest';
import { currentTraceCarrier, jobTraceOf, withRequestId } from '../bus/trace-carrier.ts';
import {
  installTracing,
  otlpProtocolFrom,
  otlpTracesUrl,
  resourceAttributesFrom,
  samplerFrom,
  startTracing,
  type Tracing,
  tracingOn,
} from './tracing.ts';

let tracing: Tracing | null = null;
afterEach(async () => {
  await tracing?.shutdown();
  tracing = null;
});

const inSpan = <T>(name: string, run: () => T) =>
  trace.getTracer('test').startActiveSpan(name, (span) => {
    try {
      return run();
    } finally {
      span.end();
    }
  });

describe('tracing off', () => {
  it('stays off without an OTLP endpoint, and when OTEL_SDK_DISABLED or OTEL_TRACES_EXPORTER=none says so', () => {
    tracing = startTracing('verdict-test', {});
    expect(tracingOn()).toBe(false);
    const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' };
    for (const disabled of ['true', '1', 'YES', 'on']) {
      tracing = startTracing('verdict-test', { ...endpoint, OTEL_SDK_DISABLED: disabled });
      expect(tracingOn(), disabled).toBe(false);
    }
    tracing = startTracing('verdict-test', { ...endpoint, OTEL_TRACES_EXPORTER: 'none' });
    expect(tracingOn()).toBe(false);
  });

  it('records nothing and carries nothing when no provider is installed, though the code paths run', () => {
    const exporter = new InMemorySpanExporter();
    // A processor on a provider nobody installed: what the no-op API would hand it is nothing.
    new SimpleSpanProcessor({ exporter });
    const carried = inSpan('request', () => {
      expect(trace.getActiveSpan()?.isRecording() ?? false).toBe(false);
      return context.with(withRequestId(context.active(), 'req-1'), currentTraceCarrier);
    });
    // With no context manager the request id cannot be held either: nothing goes with the job.
    expect(carried).toBeUndefined();
    expect(jobTraceOf(carried)).toEqual({});
    expect(exporter.getFinishedSpans()).toEqual([]);
  });
});

describe('tracing on', () => {
  /** A local OTLP/HTTP endpoint that keeps each export's method, path, content type and body. */
  async function startSink() {
    const received: { line: string; contentType: string; body: string }[] = [];
    const sink = createServer((request, response) => {
      let body = '';
      request.setEncoding('latin1');
      request.on('data', (chunk) => {
        body += chunk;
      });
      request.on('end', () => {
        received.push({
          line: `${request.method} ${request.url}`,
          contentType: String(request.headers['content-type']),
          body,
        });
        response.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
    const { port } = sink.address() as AddressInfo;
    return { url: `http://127.0.0.1:${port}`, received, close: () => sink.close() };
  }

  it('starts when an endpoint is set, sends its spans there over OTLP/HTTP protobuf when shut down, then records none', async () => {
    const sink = await startSink();
    tracing = startTracing('verdict-test', {
      OTEL_EXPORTER_OTLP_ENDPOINT: sink.url,
      OTEL_SERVICE_NAME: 'verdict-named',
    });
    expect(tracingOn()).toBe(true);
    expect(inSpan('a-span-named-on', () => trace.getActiveSpan()?.isRecording())).toBe(true);
    await tracing.shutdown();
    sink.close();
    expect(sink.received).toHaveLength(1);
    expect(sink.received[0]?.line).toBe('POST /v1/traces');
    // The specification's default protocol: protobuf, whose strings travel as they are.
    expect(sink.received[0]?.contentType).toBe('application/x-protobuf');
    expect(sink.received[0]?.body).toContain('verdict-named');
    expect(sink.received[0]?.body).toContain('a-span-named-on');
    expect(tracingOn()).toBe(false);
    expect(inSpan('off', () => trace.getActiveSpan()?.isRecording() ?? false)).toBe(false);
  });

  it('sends JSON when OTEL_EXPORTER_OTLP_PROTOCOL says http/json', async () => {
    const sink = await startSink();
    tracing = startTracing('verdict-test', {
      OTEL_EXPORTER_OTLP_ENDPOINT: sink.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    });
    inSpan('in-json', () => undefined);
    await tracing.shutdown();
    sink.close();
    expect(sink.received[0]?.contentType).toBe('application/json');
    expect(JSON.stringify(JSON.parse(sink.received[0]?.body ?? ''))).toContain('"in-json"');
  });

  it("carries the active span and the request id to a job, which reads them back as its parent's", () => {
    const exporter = new InMemorySpanExporter();
    tracing = installTracing({
      serviceName: 'verdict-test',
      spanProcessors: [new SimpleSpanProcessor({ exporter })],
    });
    const { carrier, spanContext } = inSpan('request', () => ({
      carrier: context.with(withRequestId(context.active(), 'req-1'), currentTraceCarrier),
      spanContext: trace.getActiveSpan()?.spanContext(),
    }));
    expect(carrier?.traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    const read = jobTraceOf(carrier);
    expect(read.parent).toMatchObject({ traceId: spanContext?.traceId, spanId: spanContext?.spanId });
    expect(read.requestId).toBe('req-1');
    expect(exporter.getFinishedSpans().map((span) => span.name)).toEqual(['request']);
  });

  it('refuses a request id that could break a log line', () => {
    expect(jobTraceOf({ 'verdict-request-id': 'two\nlines' })).toEqual({});
  });
});

describe('the standard variables', () => {
  it('take the protocol from the traces variable, then the general one; protobuf unless http/json', () => {
    expect(otlpProtocolFrom({})).toBe('http/protobuf');
    expect(otlpProtocolFrom({ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' })).toBe('http/json');
    expect(
      otlpProtocolFrom({
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/protobuf',
      }),
    ).toBe('http/protobuf');
    expect(otlpProtocolFrom({ OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toBe('http/protobuf');
  });

  it('take the traces endpoint as it is, or the base endpoint with /v1/traces', () => {
    expect(otlpTracesUrl({})).toBeNull();
    expect(otlpTracesUrl({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' })).toBe(
      'http://collector:4318/v1/traces',
    );
    expect(
      otlpTracesUrl({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://other:4318/custom',
      }),
    ).toBe('http://other:4318/custom');
  });

  it('choose the sampler by name, parent-based always-on by default', () => {
    expect(samplerFrom({}).toString()).toMatch(/ParentBased.*AlwaysOnSampler/);
    expect(samplerFrom({ OTEL_TRACES_SAMPLER: 'always_off' }).toString()).toBe('AlwaysOffSampler');
    expect(
      samplerFrom({ OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.25' }).toString(),
    ).toContain('0.25');
  });

  it('read resource attributes as percent-encoded pairs, dropping malformed ones', () => {
    expect(
      resourceAttributesFrom({
        OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment=prod,team=a%20b,bad,x=%E0%A4%A',
      }),
    ).toEqual({ 'deployment.environment': 'prod', team: 'a b' });
  });
});
