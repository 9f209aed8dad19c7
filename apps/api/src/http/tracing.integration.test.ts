import { SpanKind } from '@opentelemetry/api';
import { InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from '@opentelemetry/sdk-trace';
import type { CreatedDebate } from '@verdict/contracts';
import { createLogger, installTracing, type Tracing } from '@verdict/core';
import {
  debateReaching,
  eventually,
  RECEIVER_HOST,
  receiverPolicy,
  startWebhookReceiver,
  testNatsUrl,
  uniqueSchema,
  type WebhookReceiver,
} from '@verdict/core/testing';
import { createEngineNode, type EngineNode } from '@verdict/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, registerUser, startServer } from '../testing/http-harness.ts';

// Installed before any server or engine is built: both add their tracing only where a provider is installed.
const exporter = new InMemorySpanExporter();
let tracing: Tracing;
beforeAll(() => {
  tracing = installTracing({
    serviceName: 'verdict-test',
    spanProcessors: [new SimpleSpanProcessor({ exporter })],
  });
});
afterAll(async () => {
  await tracing.shutdown();
});

const idOf = (span: ReadableSpan) => span.spanContext().spanId;

/** The spans of one trace, and the chain of parents from a span up to the trace's root. */
function traceOf(traceId: string) {
  const spans = exporter.getFinishedSpans().filter((span) => span.spanContext().traceId === traceId);
  const byId = new Map(spans.map((span) => [idOf(span), span]));
  const ancestors = (span: ReadableSpan) => {
    const chain: ReadableSpan[] = [];
    for (let at = span.parentSpanContext; at; ) {
      const parent = byId.get(at.spanId);
      if (!parent) break;
      chain.push(parent);
      at = parent.parentSpanContext;
    }
    return chain;
  };
  const roots = spans.filter((span) => !span.parentSpanContext || !byId.has(span.parentSpanContext.spanId));
  return { spans, roots, ancestors, named: (name: string) => spans.filter((span) => span.name === name) };
}

describe.each([
  { mode: 'distributed: the job crosses a real NATS JetStream', nats: true },
  { mode: 'embedded: the job goes through the in-process bus', nats: false },
])('one trace per debate ($mode)', ({ nats }) => {
  let h: Harness;
  let engine: EngineNode;
  let receiver: WebhookReceiver;
  const apiLines: Record<string, unknown>[] = [];
  const engineLines: { message: string; details?: Record<string, unknown> }[] = [];

  beforeAll(async () => {
    // The spans of this mode's run only (the other mode's server and engine are stopped by now).
    exporter.reset();
    receiver = await startWebhookReceiver();
    h = await startServer({
      env: {
        WEBHOOK_ALLOW_HTTP: 'true',
        ...(nats ? { NATS_URL: testNatsUrl(), NATS_PREFIX: `${uniqueSchema('trace')}.` } : {}),
      },
      logger: createLogger({
        level: 'info',
        pretty: false,
        destination: { write: (line: string) => void apiLines.push(JSON.parse(line)) },
      }),
    });
    engine = createEngineNode({
      db: h.core.db,
      bus: h.core.bus,
      clock: h.core.clock,
      slots: 2,
      providerKeys: {},
      simulated: { firstTokenMs: 1 },
      policy: { timeoutMs: 2000, retries: 1, backoffMs: 10 },
      webhooks: { policy: receiverPolicy, intervalMs: 50, senders: 2, timeoutMs: 5000 },
      log: (_level, message, details) => void engineLines.push({ message, ...(details ? { details } : {}) }),
    });
    engine.start();
  });
  afterAll(async () => {
    await engine?.stop();
    await receiver?.close();
    await h?.close();
  });

  it('connects the create request, the engine job, its rounds, turns, provider calls and store writes', async () => {
    const user = await registerUser(h);
    const hook = await h.request('POST', '/api/webhooks', {
      cookie: user.cookie,
      body: { url: `http://${RECEIVER_HOST}:${receiver.port}/hook`, events: ['debate.completed'] },
    });
    expect(hook.status, hook.text).toBe(201);
    const created = await h.request<CreatedDebate>('POST', '/api/debates', {
      cookie: user.cookie,
      body: { question: 'Should every span of a debate share one trace?', skipCache: true },
    });
    expect(created.status, created.text).toBe(201);
    const { debateId } = created.json;
    expect((await debateReaching(h.core, debateId))?.status).toBe('completed');
    // The job's span ends once the job is acked, a moment after the debate reads completed.
    const job = await eventually(
      () =>
        exporter
          .getFinishedSpans()
          .find((s) => s.name === 'debate.job' && s.attributes['debate.id'] === debateId),
      (span) => span !== undefined,
    );
    if (!job) throw new Error('unreachable');

    const trace = traceOf(job.spanContext().traceId);
    // One root: the HTTP request that created the debate.
    expect(trace.roots.map((span) => span.name)).toEqual(['POST /api/debates']);
    const [request] = trace.roots;
    if (!request) throw new Error('unreachable');
    expect(request.kind).toBe(SpanKind.SERVER);
    expect(request.attributes['http.response.status_code']).toBe(201);
    expect(request.attributes['http.route']).toBe('/api/debates');

    // The job is the request's child across the bus hop, carried as a remote parent.
    expect(job.kind).toBe(SpanKind.CONSUMER);
    expect(job.parentSpanContext?.spanId).toBe(idOf(request));
    expect(job.parentSpanContext?.isRemote).toBe(true);
    expect(job.attributes['debate.attempt']).toBe(1);
    expect(job.attributes['verdict.request.id']).toBe(request.attributes['verdict.request.id']);
    expect(job.attributes['debate.job.ending']).toBe('Completed');

    const underJob = (span: ReadableSpan) => trace.ancestors(span).includes(job);
    const rounds = trace.named('debate.round');
    const turns = trace.named('debate.turn');
    expect(rounds.length).toBeGreaterThan(0);
    expect(turns.length).toBeGreaterThanOrEqual(rounds.length);
    for (const turn of turns) expect(trace.ancestors(turn).map((s) => s.name)).toContain('debate.round');
    expect([...rounds, ...turns].every(underJob)).toBe(true);

    // Every provider call — debaters', the judge's, the classifier's — with its model, tokens and cost.
    const calls = trace.spans.filter((span) => span.name.startsWith('chat '));
    expect(calls.length).toBeGreaterThanOrEqual(turns.length + 2);
    for (const call of calls) {
      expect(underJob(call)).toBe(true);
      expect(call.kind).toBe(SpanKind.CLIENT);
      expect(call.attributes['gen_ai.request.model']).toEqual(expect.any(String));
      expect(call.attributes['gen_ai.response.model']).toEqual(expect.any(String));
      expect(call.attributes['gen_ai.usage.input_tokens']).toBeGreaterThan(0);
      expect(call.attributes['gen_ai.usage.output_tokens']).toBeGreaterThan(0);
      expect(call.attributes['verdict.llm.cost_usd']).toBeGreaterThanOrEqual(0);
      expect(call.attributes['verdict.llm.outcome']).toBe('ok');
    }
    const tasks = calls.map((call) => call.attributes['verdict.llm.task']);
    expect(tasks).toEqual(expect.arrayContaining(['debater', 'synthesizer', 'classifier']));
    const judge = trace.named('debate.judge');
    expect(judge).toHaveLength(1);
    expect(calls.some((call) => trace.ancestors(call).includes(judge[0] as ReadableSpan))).toBe(true);

    // The debate's writes: its turns and its final state, each under the job.
    const writes = trace.spans.filter((span) => span.name.startsWith('store.'));
    expect(writes.map((span) => span.name)).toEqual(
      expect.arrayContaining(['store.claim', 'store.markRunning', 'store.saveTurn', 'store.finish']),
    );
    expect(writes.every(underJob)).toBe(true);
    expect(trace.named('store.saveTurn')).toHaveLength(turns.length);

    // The request's log line and the engine's lines about the debate name the trace and the request.
    const traceId = request.spanContext().traceId;
    const requestId = request.attributes['verdict.request.id'];
    const requestLine = apiLines.find((line) => line.method === 'POST' && line.url === '/api/debates');
    expect(requestLine).toMatchObject({ traceId, reqId: requestId, status: 201 });
    const completedLine = engineLines.find((line) => line.message === `debate ${debateId}: completed`);
    expect(completedLine?.details).toMatchObject({ traceId, requestId });

    // The completed debate's webhook goes out from the outbox later, each attempt continuing the trace from
    // the finish that queued it.
    const delivery = await eventually(
      () =>
        exporter
          .getFinishedSpans()
          .find((s) => s.name === 'webhook.deliver' && s.attributes['webhook.event'] === 'debate.completed'),
      (span) => span !== undefined,
    );
    expect(receiver.received.some((r) => r.body.includes(debateId))).toBe(true);
    expect(delivery?.kind).toBe(SpanKind.CLIENT);
    expect(delivery?.attributes).toMatchObject({
      'http.response.status_code': 200,
      'webhook.delivery.attempt': 1,
    });
    if (!delivery) throw new Error('unreachable');
    const whole = traceOf(traceId);
    expect(whole.roots).toEqual([request]);
    expect(whole.ancestors(delivery).map((span) => span.name)).toEqual([
      'store.finish',
      'debate.job',
      'POST /api/debates',
    ]);
  });
});
