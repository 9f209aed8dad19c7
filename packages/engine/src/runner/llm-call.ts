// Modules, not the 'effect' barrel, which loads all of Effect (a third of a second of start-up).

import { estimateUsd } from '@verdict/core';
import * as Data from 'effect/Data';
import * as Effect from 'effect/Effect';
import * as Schedule from 'effect/Schedule';
import { LlmCallError, type LlmProvider, type LlmRequest, type LlmResponse } from '../providers/port.ts';
import { annotateLlmCall, llmCallSpan } from '../tracing/spans.ts';

/** A provider call that failed for good: after retries, or at once when not retryable. */
export class ProviderFailure extends Data.TaggedError('ProviderFailure')<{ readonly error: LlmCallError }> {
  get kind() {
    return this.error.kind;
  }
  override get message() {
    return this.error.message;
  }
}

export type CallPolicy = {
  /** Whole-call limit per attempt (first token to last). */
  timeoutMs: number;
  /** Retries after the first attempt, only for 429, 5xx and timeouts. */
  retries: number;
  /** First backoff; doubles each retry. */
  backoffMs: number;
};

export const DEFAULT_CALL_POLICY: CallPolicy = { timeoutMs: 60_000, retries: 3, backoffMs: 500 };

function classify(error: unknown): ProviderFailure {
  if (error instanceof LlmCallError) return new ProviderFailure({ error });
  return new ProviderFailure({ error: new LlmCallError('server', 'provider call failed', { cause: error }) });
}

/**
 * One LLM call as an Effect: the signal is Effect's own (interrupting the fiber aborts the HTTP call), each
 * attempt has a timeout and a span of its own, and retries back off exponentially on retryable failures only.
 *
 * A plain function, not `Effect.fn`: that makes a span and captures a stack trace for every call even with
 * tracing off, and a running debate keeps one such call open for each seat.
 */
export function callLlm(
  provider: LlmProvider,
  request: Omit<LlmRequest, 'signal'>,
  policy: CallPolicy = DEFAULT_CALL_POLICY,
): Effect.Effect<LlmResponse, ProviderFailure> {
  const attempt = Effect.tryPromise({
    try: (signal: AbortSignal) =>
      withDeadline(policy.timeoutMs, signal, (callSignal) =>
        provider.complete({ ...request, signal: callSignal }),
      ),
    catch: classify,
  }).pipe(
    Effect.tap((response) =>
      annotateLlmCall({
        ...response,
        costUsd: estimateUsd(response.model, response.inputTokens, response.outputTokens),
      }),
    ),
    Effect.tapError((failure) => Effect.annotateCurrentSpan('verdict.llm.outcome', failure.error.kind)),
    llmCallSpan(request.task, request.model, provider.name),
  );
  return attempt.pipe(
    Effect.retry({
      schedule: Schedule.exponential(policy.backoffMs),
      times: policy.retries,
      while: (failure: ProviderFailure) => failure.error.retryable,
    }),
  );
}

/**
 * Runs `call` with a signal that aborts when the caller's does or once `ms` pass; at `ms` the answer is a
 * timeout at once, whether or not the provider heeds its signal. A timer on the call itself, not a race
 * with a sleeping fiber: `Effect.timeout` forks two fibers a call, and every seat of a running debate
 * waits in one.
 */
function withDeadline<T>(
  ms: number,
  outer: AbortSignal,
  call: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const controller = new AbortController();
  const abort = () => controller.abort(outer.reason);
  outer.addEventListener('abort', abort, { once: true });
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new LlmCallError('timeout', `no answer within ${ms} ms`));
      controller.abort();
    }, ms);
    call(controller.signal)
      .then(resolve, reject)
      .finally(() => {
        clearTimeout(timer);
        outer.removeEventListener('abort', abort);
      });
  });
}
