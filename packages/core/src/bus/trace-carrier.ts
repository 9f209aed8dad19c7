import {
  type Context,
  context,
  createContextKey,
  propagation,
  ROOT_CONTEXT,
  type SpanContext,
  trace,
} from '@opentelemetry/api';

/**
 * What a job carries of the request that queued it: the W3C trace context (`traceparent`, `tracestate`) and
 * the request's id, as message headers on NATS and beside the job in memory. Empty when tracing is off.
 */
export type TraceCarrier = Record<string, string>;

/** The trace a job continues, read back from its carrier. */
export type JobTrace = {
  /** The span that queued the job (the create request's), when tracing was on there. */
  parent?: SpanContext;
  /** The id of the request that queued the job, for the engine's log lines about it. */
  requestId?: string;
};

const REQUEST_ID_HEADER = 'verdict-request-id';
const requestIdKey = createContextKey('verdict.request_id');

/** `ctx` with the request's id in it, so a job queued inside it carries the id to the engine. */
export const withRequestId = (ctx: Context, requestId: string): Context =>
  ctx.setValue(requestIdKey, requestId);

/**
 * The active trace context as a carrier, or undefined when there is nothing to carry. With no tracing
 * installed the propagator and the context are no-ops, so this costs one empty object.
 */
export function currentTraceCarrier(): TraceCarrier | undefined {
  const active = context.active();
  const carrier: TraceCarrier = {};
  propagation.inject(active, carrier);
  const requestId = active.getValue(requestIdKey);
  if (typeof requestId === 'string') carrier[REQUEST_ID_HEADER] = requestId;
  return Object.keys(carrier).length > 0 ? carrier : undefined;
}

/** The trace a carrier names (nothing when it is absent or tracing is off here). */
export function jobTraceOf(carrier: TraceCarrier | undefined): JobTrace {
  if (!carrier) return {};
  const parent = trace.getSpanContext(propagation.extract(ROOT_CONTEXT, carrier));
  const requestId = carrier[REQUEST_ID_HEADER];
  return {
    ...(parent ? { parent } : {}),
    ...(requestId && /^[\x21-\x7e]{1,128}$/.test(requestId) ? { requestId } : {}),
  };
}
