import { Effect, Exit } from 'effect';
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

function scripted(outcomes: (LlmCallError | 'ok' | 'hang')[]): LlmProvider & { calls: number } {
  const provider = {
    name: 'scripted',
    calls: 0,
    complete: async ({ signal }: { signal: AbortSignal }) => {
      const outcome = outcomes[provider.calls++] ?? 'ok';
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
