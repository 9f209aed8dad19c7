import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, registerUser } from './support/api-client.ts';
import { type DistributedStack, startDistributedStack } from './support/stack.ts';

/** One span as OTLP/JSON sends it, with the service that sent it. */
type ExportedSpan = {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  attributes: Record<string, unknown>;
};

type OtlpValue = {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
  boolValue?: boolean;
};
type OtlpAttribute = { key: string; value: OtlpValue };
type OtlpBody = {
  resourceSpans?: {
    resource?: { attributes?: OtlpAttribute[] };
    scopeSpans?: {
      spans?: {
        traceId: string;
        spanId: string;
        parentSpanId?: string;
        name: string;
        attributes?: OtlpAttribute[];
      }[];
    }[];
  }[];
};

const plainValue = (value: OtlpValue) =>
  value.stringValue ??
  (value.intValue !== undefined ? Number(value.intValue) : (value.doubleValue ?? value.boolValue));
const attributesOf = (attributes: OtlpAttribute[] = []) =>
  Object.fromEntries(attributes.map((attribute) => [attribute.key, plainValue(attribute.value)]));

/** A collector's stand-in: takes OTLP/HTTP (JSON) trace exports and keeps their spans. */
async function startCollector() {
  const spans: ExportedSpan[] = [];
  const server: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      const parsed = JSON.parse(body) as OtlpBody;
      for (const resource of parsed.resourceSpans ?? []) {
        const service = String(attributesOf(resource.resource?.attributes)['service.name']);
        for (const scope of resource.scopeSpans ?? [])
          for (const span of scope.spans ?? [])
            spans.push({
              service,
              traceId: span.traceId,
              spanId: span.spanId,
              parentSpanId: span.parentSpanId ?? '',
              name: span.name,
              attributes: attributesOf(span.attributes),
            });
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function until<T>(read: () => T | undefined, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`not seen within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

// The API and an engine node as their own processes, both exporting to one collector as an operator would
// configure them: the debate's trace must cross from one process to the other through NATS.
describe('traces exported by the API and engine processes', () => {
  let collector: Awaited<ReturnType<typeof startCollector>>;
  let stack: DistributedStack;

  beforeAll(async () => {
    collector = await startCollector();
    stack = await startDistributedStack('trace', {
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
      OTEL_BSP_SCHEDULE_DELAY: '100',
      // The collector's stand-in reads JSON; the default protocol is protobuf.
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    });
  });
  afterAll(async () => {
    await stack?.stop();
    await collector?.close();
  });

  it('connect the create request in the API process to the job and provider calls in the engine process', async () => {
    const user = await registerUser(stack.baseUrl, 'traced');
    const session = apiClient(stack.baseUrl, { cookie: user.cookie });
    const created = await session.POST('/api/debates', {
      body: { question: 'Should one trace span two processes?', skipCache: true },
    });
    expect(created.response.status).toBe(201);
    const debateId = created.data?.debateId ?? '';
    const requestId = created.response.headers.get('x-request-id');

    const job = await until(() =>
      collector.spans.find((span) => span.name === 'debate.job' && span.attributes['debate.id'] === debateId),
    );
    const request = collector.spans.find((span) => span.spanId === job.parentSpanId);
    expect(request).toMatchObject({
      service: 'verdict-api',
      name: 'POST /api/debates',
      traceId: job.traceId,
      attributes: { 'http.response.status_code': 201, 'verdict.request.id': requestId },
    });
    expect(job.service).toBe('verdict-engine');
    expect(job.attributes['verdict.request.id']).toBe(requestId);
    const calls = collector.spans.filter(
      (span) => span.traceId === job.traceId && span.name.startsWith('chat '),
    );
    expect(calls.length).toBeGreaterThanOrEqual(3);
    expect(calls.every((call) => call.service === 'verdict-engine')).toBe(true);
    expect(calls.every((call) => Number(call.attributes['gen_ai.usage.output_tokens']) > 0)).toBe(true);
    // The engine's line about the debate names the trace and the request that created it.
    const line = stack.engine
      .output()
      .split('\n')
      .find((text) => text.includes(`debate ${debateId}: completed`));
    expect(line && JSON.parse(line)).toMatchObject({ traceId: job.traceId, requestId });
  });
});

// Tracing off, as by default: no spans, yet the engine's lines about a debate still name the request that
// created it, so a log search can follow one debate from the API's line to the engine's.
describe('the request id with tracing off', () => {
  let stack: DistributedStack;

  beforeAll(async () => {
    stack = await startDistributedStack('untraced');
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it("reaches the engine's line about the debate, with no trace id anywhere", async () => {
    const user = await registerUser(stack.baseUrl, 'untraced');
    const created = await apiClient(stack.baseUrl, { cookie: user.cookie }).POST('/api/debates', {
      body: { question: 'Should a log line name the request behind it?', skipCache: true },
    });
    expect(created.response.status).toBe(201);
    const debateId = created.data?.debateId ?? '';
    const requestId = created.response.headers.get('x-request-id');
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    const line = await until(() =>
      stack.engine
        .output()
        .split('\n')
        .find((text) => text.includes(`debate ${debateId}: completed`)),
    );
    expect(JSON.parse(line)).toMatchObject({ requestId });
    expect(stack.engine.output()).not.toContain('"traceId"');
    expect(stack.api.output()).not.toContain('"traceId"');
  });
});
