import { Effect, Exit, Fiber } from 'effect';
import { describe, expect, it } from 'vitest';
import { LlmCallError, type LlmProvider } from '../providers/port.ts';
import { callLlm, ProviderFailure } from './llm-call.ts';

const request = {
  task: 'debater' as const,
  model: 'm',
  system: 's',
  prompt: 'p',
  maxTokens: 10,
  json: false,
};
const fast = { timeoutMs: 200, retries: 3, backoffMs: 1 };

/** 'hang' waits until its signal aborts; 'deaf' never answers and never looks at its signal. */
function scripted(
  outcomes: (LlmCallError | 'ok' | 'hang' | 'deaf')[],
): LlmProvider & { calls: number; signals: AbortSignal[] } {
  const provider = {
    name: 'scripted',
    calls: 0,
    signals: [] as AbortSignal[],
    complete: async ({ signal }: { signal: AbortSignal }) => {
      provider.signals.push(signal);
      const outcome = outcomes[provider.calls++] ?? 'ok';
      if (outcome === 'deaf') await new Promise(() => {});
      if (outcome === 'hang') {
        await new Promise((_, reject) =>
          signal.addEventListener('abort', () => reject(new Error('aborted'))),
        );
      }
      if (outcome instanceof LlmCallError) throw outcome;
      return { text: 'done', model: 'm', inputTokens: 1, outputTokens: 1 };
    },
  };
  return provider;
}

describe('callLlm', () => {
  it('retries 429 and 5xx, then succeeds', async () => {
    const provider = scripted([
      new LlmCallError('rate_limited', '429'),
      new LlmCallError('server', '503'),
      'ok',
    ]);
    const response = await Effect.runPromise(callLlm(provider, request, fast));
    expect(response.text).toBe('done');
    expect(provider.calls).toBe(3);
  });

  it('does not retry a client error', async () => {
    const provider = scripted([new LlmCallError('client', '400 bad request')]);
    const exit = await Effect.runPromiseExit(callLlm(provider, request, fast));
    expect(Exit.isFailure(exit)).toBe(true);
    expect(provider.calls).toBe(1);
  });

  it('times out a stalled attempt, aborts it, and retries', async () => {
    const provider = scripted(['hang', 'ok']);
    const response = await Effect.runPromise(callLlm(provider, request, { ...fast, timeoutMs: 30 }));
    expect(response.text).toBe('done');
    expect(provider.calls).toBe(2);
    expect(provider.signals.map((signal) => signal.aborted)).toEqual([true, false]);
  });

  it('times out an attempt whose provider ignores its signal', async () => {
    const provider = scripted(['deaf']);
    const started = performance.now();
    const failure = await Effect.runPromise(
      Effect.flip(callLlm(provider, request, { timeoutMs: 30, retries: 0, backoffMs: 1 })),
    );
    expect(failure.kind).toBe('timeout');
    expect(failure.message).toBe('no answer within 30 ms');
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(provider.signals[0]?.aborted).toBe(true);
  });

  it('aborts the call when its fiber is interrupted', async () => {
    const provider = scripted(['hang']);
    const fiber = Effect.runFork(callLlm(provider, request, { ...fast, timeoutMs: 60_000 }));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(provider.signals[0]?.aborted).toBe(false);
    await Effect.runPromise(Fiber.interrupt(fiber));
    expect(provider.signals[0]?.aborted).toBe(true);
    expect(provider.calls).toBe(1);
  });

  it('gives up after the retries with a typed failure that says what kind it was', async () => {
    const provider = scripted(['hang', 'hang', 'hang']);
    const failure = await Effect.runPromise(
      Effect.flip(callLlm(provider, request, { timeoutMs: 20, retries: 2, backoffMs: 1 })),
    );
    expect(failure).toBeInstanceOf(ProviderFailure);
    expect(failure.kind).toBe('timeout');
    expect(provider.calls).toBe(3);
  });
});
