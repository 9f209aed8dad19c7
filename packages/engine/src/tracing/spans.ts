import { type JobHandle, tracingOn } from '@verdict/core';
import * as Effect from 'effect/Effect';
import * as Tracer from 'effect/Tracer';

/**
 * The engine's spans, named and attributed in one place. A debate's trace: `debate.job` (a child of the
 * create request's span, across the bus) › `debate.round` › `debate.turn` › `llm.call`, beside them
 * `debate.judge` and `debate.classify` with their own calls, and `store.*` for the debate's writes.
 *
 * Only while this process records spans (core's `tracingOn`). Otherwise Effect's own spans would be made
 * for nobody to read, each with the contexts and closures it keeps for as long as it is open: a running
 * debate keeps its job's, its round's, its turns' and its writes' open, a share of its heap.
 */

/**
 * The span `makeSpan` makes around `effect` while spans are recorded; `effect` itself otherwise. A thunk:
 * `Effect.withSpan` captures its caller's stack trace when called, which untraced cost ~1.4 % of a busy
 * node's CPU for spans never made.
 */
const whenTraced =
  (makeSpan: () => <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>) =>
  <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    tracingOn() ? makeSpan()(effect) : effect;

/** The span of the request that queued the job, as Effect's parent for the job's span. */
const parentOf = (handle: JobHandle): Tracer.ExternalSpan | undefined => {
  const parent = handle.trace.parent;
  if (!parent) return undefined;
  return Tracer.externalSpan({
    traceId: parent.traceId,
    spanId: parent.spanId,
    sampled: (parent.traceFlags & 1) === 1,
  });
};

/**
 * Runs a job's program in its span, continuing the trace that queued it, with the queuing request's id on
 * every log line of the job.
 */
export const inJobSpan =
  (handle: JobHandle) =>
  <A, E, R>(program: Effect.Effect<A, E, R>) => {
    const parent = parentOf(handle);
    const { requestId } = handle.trace;
    return program.pipe(
      whenTraced(() =>
        Effect.withSpan('debate.job', {
          kind: 'consumer',
          ...(parent ? { parent } : {}),
          attributes: {
            'debate.id': handle.job.debateId,
            'debate.attempt': handle.job.attempt,
            'debate.job.redelivered': handle.redelivered,
            'messaging.operation.type': 'process',
            ...(requestId ? { 'verdict.request.id': requestId } : {}),
          },
        }),
      ),
      Effect.annotateLogs(requestId ? { requestId } : {}),
    );
  };

/** A span of the debate's machinery (round, turn, judge, classifier) with its attributes. */
export const debateSpan = (name: string, attributes: Record<string, unknown>) =>
  whenTraced(() => Effect.withSpan(name, { attributes }));

/**
 * A provider call's span as OpenTelemetry's GenAI conventions name it (`chat <model>`, client kind), with
 * what it cost once it answered: the model that answered, the tokens both ways, the cost at list price, and
 * the outcome.
 */
export const llmCallSpan = (task: string, model: string, provider: string) =>
  whenTraced(() =>
    Effect.withSpan(`chat ${model}`, {
      kind: 'client',
      attributes: {
        'gen_ai.operation.name': 'chat',
        'gen_ai.provider.name': provider,
        'gen_ai.request.model': model,
        'verdict.llm.task': task,
      },
    }),
  );

/** What a finished provider call adds to its span. */
export const annotateLlmCall = (answer: {
  model: string;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
}) =>
  Effect.annotateCurrentSpan({
    'gen_ai.response.model': answer.model,
    'gen_ai.usage.input_tokens': answer.inputTokens,
    'gen_ai.usage.output_tokens': answer.outputTokens,
    'verdict.llm.cost_usd': answer.costUsd,
    'verdict.llm.outcome': 'ok',
  });

/** A write of the engine store, named by the store's method. */
export const storeSpan = (method: string, debateId: string) =>
  whenTraced(() =>
    Effect.withSpan(`store.${method}`, {
      attributes: { 'debate.id': debateId, 'db.system.name': 'postgresql' },
    }),
  );
