import {
  type Context,
  context,
  propagation,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';
import { tracingOn, withRequestId } from '@verdict/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { tracedPath } from './url-redaction.ts';

/** Each request's server span and the context its handler runs in, by request. */
const spans = new WeakMap<FastifyRequest, { span: Span; ctx: Context }>();

/**
 * A server span per request (named by method and route template, as OpenTelemetry's HTTP conventions say),
 * made the active context while the handler runs, so work the handler starts — a debate's job above all —
 * continues its trace. A caller's `traceparent` is honoured. Every log line of the request carries its trace
 * id. With tracing off only the request's id is put in the context, for the engine's log lines.
 */
export function traceRequests(app: FastifyInstance) {
  if (!tracingOn()) {
    // No spans, but the request's id in the context its handler runs in: a job it queues carries it. Reads
    // queue nothing, so they skip the async-context hop and cost nothing (BENCHMARKS.md, "Tracing").
    app.addHook('preHandler', (request, _reply, done) => {
      if (request.method === 'GET' || request.method === 'HEAD') return done();
      context.with(withRequestId(ROOT_CONTEXT, request.id), done);
    });
    return;
  }
  // Taken once: with a provider installed, this is the SDK's tracer itself, not a proxy looked up per span.
  const tracer = trace.getTracer('verdict-api');
  app.addHook('onRequest', (request, reply, done) => {
    // A path no route took gets one name, so span names stay as few as the routes.
    const route = request.routeOptions.url ?? 'unmatched';
    const incoming = propagation.extract(ROOT_CONTEXT, request.headers);
    const span = tracer.startSpan(
      `${request.method} ${route}`,
      {
        kind: SpanKind.SERVER,
        attributes: {
          'http.request.method': request.method,
          'http.route': route,
          // The path only (a query string can hold a token), its secret parameters redacted (a share token).
          'url.path': tracedPath(request),
          'verdict.request.id': request.id,
        },
      },
      incoming,
    );
    const ctx = withRequestId(trace.setSpan(incoming, span), request.id);
    spans.set(request, { span, ctx });
    request.log = request.log.child({ traceId: span.spanContext().traceId });
    reply.log = request.log;
    done();
  });
  // After the body is read: a body arrives through the socket's events, outside any context set earlier.
  app.addHook('preHandler', (request, _reply, done) => {
    const traced = spans.get(request);
    if (traced) context.with(traced.ctx, done);
    else done();
  });
  app.addHook('onResponse', (request, reply, done) => {
    const traced = spans.get(request);
    if (traced) {
      traced.span.setAttribute('http.response.status_code', reply.statusCode);
      if (reply.statusCode >= 500) traced.span.setStatus({ code: SpanStatusCode.ERROR });
      traced.span.end();
      spans.delete(request);
    }
    done();
  });
  app.addHook('onRequestAbort', (request, done) => {
    const traced = spans.get(request);
    if (traced) {
      traced.span.setStatus({ code: SpanStatusCode.ERROR, message: 'aborted by the client' });
      traced.span.end();
      spans.delete(request);
    }
    done();
  });
}
